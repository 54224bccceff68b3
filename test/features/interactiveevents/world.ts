import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { basicWorldWith, daysFromNow } from '../../fixtures.js';

export const PHASE = 'a4_candy_interactive_events:issue';
const running = [{ type: PHASE, name: 'Issue phase', description: 'Ask', start_date: daysFromNow(-1), end_date: daysFromNow(1) }];
const ended = [{ type: PHASE, name: 'Issue phase', description: 'Ask', start_date: daysFromNow(-3), end_date: daysFromNow(-2) }];

/** Interactive Events on basicWorld (users 1 admin … 6 other): organisation 2 has user 6 as its initiator. */
export const EVENT = 10;
export const ENDED_EVENT = 11;
export const PRIVATE_EVENT = 12;
export const PLAIN_EVENT = 13;

export const eventWorld = (): Fixture =>
  basicWorldWith({
    organisations: [{ id: 2, slug: 'other-org', name: 'Other organisation', initiators: [6] }],
    projects: [
      { id: 2, slug: 'other-project', name: 'Other project', organisation: 2 },
      { id: 3, slug: 'closed', name: 'Closed project', organisation: 1, access: 'PRIVATE', moderators: [3] },
    ],
    modules: [
      { id: EVENT, slug: 'town-hall', project: 1, name: 'Town hall', blueprint_type: 'IE', phases: running },
      { id: ENDED_EVENT, slug: 'last-week', project: 1, name: 'Last week', blueprint_type: 'IE', phases: ended },
      { id: PRIVATE_EVENT, slug: 'closed-event', project: 3, name: 'Closed event', blueprint_type: 'IE', phases: running },
      { id: PLAIN_EVENT, slug: 'no-affiliations', project: 1, name: 'No affiliations', blueprint_type: 'IE', phases: running },
    ],
    affiliations: [
      { id: 11, module: EVENT, name: 'Residents' },
      { id: 12, module: EVENT, name: 'Press' },
      { id: 13, module: ENDED_EVENT, name: 'Residents' },
      { id: 14, module: PRIVATE_EVENT, name: 'Staff' },
    ],
    live_questions: [
      { id: 1, module: EVENT, text: 'Will the park stay open?', affiliation: 11 },
      { id: 2, module: EVENT, text: 'Hidden question', affiliation: 12, is_hidden: true },
      { id: 3, module: ENDED_EVENT, text: 'Old question', affiliation: 13, is_answered: true },
      { id: 4, module: PRIVATE_EVENT, text: 'Staff only', affiliation: 14 },
    ],
  });
