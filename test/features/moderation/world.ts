import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { basicWorld, daysFromNow } from '../../fixtures.js';

/**
 * basicWorld plus: project 2 (moderated by user 6), idea 1 by the member (4), and comments by the
 * plain user (5): c1 (2 reports), c2 (reviewed, 1 report), c3 (1 report), c4 (reviewed, none),
 * each a day newer than the one before; c5 is a reply to c1 by the member.
 */
export function moderationWorld(): Fixture {
  const world = basicWorld();
  return {
    ...world,
    projects: [...(world.projects ?? []), { id: 2, slug: 'other', name: 'Other project', organisation: 1, moderators: [6] }],
    ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'An idea', category: 1, created: daysFromNow(-6) }],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'first', created: daysFromNow(-5) },
      { id: 2, creator: 5, target: { type: 'idea', id: 1 }, comment: 'second', created: daysFromNow(-4), is_reviewed: true },
      { id: 3, creator: 5, target: { type: 'idea', id: 1 }, comment: 'third', created: daysFromNow(-3) },
      { id: 4, creator: 5, target: { type: 'idea', id: 1 }, comment: 'fourth', created: daysFromNow(-2), is_reviewed: true },
      { id: 5, creator: 4, target: { type: 'comment', id: 1 }, comment: 'a reply', created: daysFromNow(-1), is_reviewed: true },
    ],
    reports: [
      { creator: 4, target: { type: 'comment', id: 1 }, description: 'spam' },
      { creator: 6, target: { type: 'comment', id: 1 }, description: 'rude' },
      { creator: 4, target: { type: 'comment', id: 2 }, description: 'spam' },
      { creator: 4, target: { type: 'comment', id: 3 }, description: 'spam' },
    ],
  };
}
