import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { dashboardWorld } from '../../manage/world.js';
import { daysFromNow } from '../../fixtures.js';

/**
 * The dashboard world (two organisations: initiators 2 and 7 of "org", 6 of "other-org"; moderator
 * 3 and participant 4 of project 1) with a text review, a debate and a prioritisation in project 1,
 * each in its running phase, and a finished debate.
 */
export function textsWorld(): Fixture {
  const world = dashboardWorld();
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(10) };
  const over = { start_date: daysFromNow(-10), end_date: daysFromNow(-5) };
  return {
    ...world,
    modules: [
      ...(world.modules ?? []),
      { id: 10, slug: 'text', project: 1, name: 'The draft statute', description: 'Comment on it', blueprint_type: 'TR', phases: [{ type: 'a4_candy_documents:comment', name: 'Comment', description: 'Comment', ...running }] },
      { id: 11, slug: 'debate', project: 1, name: 'The big debate', description: 'Debate it', blueprint_type: 'DB', phases: [{ type: 'a4_candy_debate:debate', name: 'Debate', description: 'Debate', ...running }] },
      {
        id: 13,
        slug: 'prio',
        project: 1,
        name: 'What first?',
        description: 'Rate the topics',
        blueprint_type: 'TP',
        phases: [{ type: 'a4_candy_topicprio:prioritize', name: 'Prioritize', description: 'Rate', ...running }],
        categories: [
          { id: 10, name: 'Streets' },
          { id: 11, name: 'Schools' },
        ],
        labels: [{ id: 10, name: 'Cheap' }],
      },
      { id: 14, slug: 'prio-over', project: 1, name: 'Rated before', description: 'Over', blueprint_type: 'TP', phases: [{ type: 'a4_candy_topicprio:prioritize', name: 'Prioritize', description: 'Rate', ...over }] },
      { id: 12, slug: 'debate-over', project: 1, name: 'The old debate', description: 'Over', blueprint_type: 'DB', phases: [{ type: 'a4_candy_debate:debate', name: 'Debate', description: 'Debate', ...over }] },
    ],
    subjects: [
      { id: 1, module: 11, name: 'Opening hours', description: 'When should the library open?' },
      { id: 2, module: 11, creator: 3, name: 'Bicycle parking' },
      { id: 3, module: 12, name: 'Old question' },
    ],
    topics: [
      { id: 1, module: 13, name: 'Zebra crossings', description: '<p>More crossings</p>', category: 10 },
      { id: 2, module: 13, name: 'Apples for schools', description: '<p>Fruit</p>', category: 11, labels: [10] },
      { id: 3, module: 14, name: 'Old topic', description: '<p>Done</p>' },
    ],
    chapters: [
      { id: 1, module: 10, creator: 2, name: 'Preamble' },
      { id: 2, module: 10, creator: 2, name: 'Rules' },
    ],
    paragraphs: [
      { id: 1, chapter: 1, name: '§ 1 Purpose', text: '<p>The purpose of the club.</p>' },
      { id: 2, chapter: 1, name: '§ 2 Seat', text: '<p>The seat of the club.</p>' },
      { id: 3, chapter: 2, name: '§ 3 Members', text: '<p>Who may join.</p>' },
    ],
  };
}
