import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { daysFromNow } from '../../fixtures.js';
import { dashboardApp, dashboardWorld } from '../../manage/world.js';

/**
 * dashboardWorld with polls: module 10 in the public project 1 (voting runs) with poll 1 —
 * question 1 single choice (choices 1, 2 and "other" 3), question 2 multiple choice (4, 5),
 * question 3 open; module 11 in organisation 2's project 4 with poll 2 (question 4, choices 6, 7);
 * module 12 in the private project 5 with poll 3 (question 5, choice 8); module 13 in project 1,
 * voting over, with poll 4 (question 6, choice 9).
 */
export function pollWorld(extra: Partial<Fixture> = {}): Fixture {
  const world = dashboardWorld();
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(5) };
  const voting = (phase = running) => [{ type: 'a4polls:voting', name: 'Voting', description: 'Vote', ...phase }];
  return {
    ...world,
    projects: [...(world.projects ?? []), { id: 5, slug: 'closed', name: 'Closed project', organisation: 1, access: 'PRIVATE', participants: [4] }],
    modules: [
      ...(world.modules ?? []),
      { id: 10, slug: 'poll', project: 1, name: 'Poll', description: 'Tell us', blueprint_type: 'PO', phases: voting() },
      { id: 11, slug: 'foreign-poll', project: 4, name: 'Foreign poll', description: 'Elsewhere', blueprint_type: 'PO', phases: voting() },
      { id: 12, slug: 'closed-poll', project: 5, name: 'Closed poll', description: 'Inside', blueprint_type: 'PO', phases: voting() },
      { id: 13, slug: 'old-poll', project: 1, name: 'Old poll', description: 'Over', blueprint_type: 'PO', phases: voting({ start_date: daysFromNow(-5), end_date: daysFromNow(-1) }) },
    ],
    polls: [
      { id: 1, module: 10, creator: 2 },
      { id: 2, module: 11, creator: 6 },
      { id: 3, module: 12 },
      { id: 4, module: 13, creator: 2 },
    ],
    questions: [
      { id: 1, poll: 1, label: 'Which colour?' },
      { id: 2, poll: 1, label: 'Which days?', multiple_choice: true },
      { id: 3, poll: 1, label: 'Anything else?', is_open: true },
      { id: 4, poll: 2, label: 'Foreign question' },
      { id: 5, poll: 3, label: 'Closed question' },
      { id: 6, poll: 4, label: 'Old question' },
    ],
    choices: [
      { id: 1, question: 1, label: 'Red' },
      { id: 2, question: 1, label: 'Blue' },
      { id: 3, question: 1, label: 'Other', is_other_choice: true },
      { id: 4, question: 2, label: 'Monday' },
      { id: 5, question: 2, label: 'Friday' },
      { id: 6, question: 4, label: 'Yes' },
      { id: 7, question: 4, label: 'No' },
      { id: 8, question: 5, label: 'Inside' },
      { id: 9, question: 6, label: 'Old' },
    ],
    ...extra,
  };
}

export const pollApp = (extra: Partial<Fixture> = {}) => dashboardApp(pollWorld(extra));

/** A whole ballot for poll 1. */
export const ballot = (q1: number[] = [1], q2: number[] = [4], open = 'More trees', other = '') => ({
  votes: {
    '1': { choices: q1, other_choice_answer: other, open_answer: '' },
    '2': { choices: q2, other_choice_answer: '', open_answer: '' },
    '3': { choices: [], other_choice_answer: '', open_answer: open },
  },
});
