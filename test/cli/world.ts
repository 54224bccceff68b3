import type { Fixture } from '../../src/cli/fixture-schema.js';
import { daysFromNow } from '../fixtures.js';

/** A fixture with every record kind, used by the loaddata and CLI tests. */
export function everyKindFixture(): Fixture {
  return {
    users: [
      { id: 10, username: 'anna', email: 'anna@example.org', password: 'anna-password', language: 'en' },
      { id: 11, username: 'ben', email: 'ben@example.org', password_hash: 'pbkdf2_sha256$600000$salt$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
      { id: 12, username: 'mod', email: 'mod@example.org', password: 'mod-password', is_staff: true },
    ],
    organisations: [{ id: 5, slug: 'org', name: 'Org', title: 'The Org', enable_geolocation: true, initiators: [12], members: [11] }],
    projects: [
      { id: 7, slug: 'p', name: 'P', organisation: 5, access: 'SEMIPUBLIC', moderators: [12], participants: [11], point: { lat: 52.5, lng: 13.4 }, street_name: 'Weg' },
    ],
    modules: [
      {
        id: 3,
        project: 7,
        name: 'M',
        phases: [
          { type: 'a4_candy_ideas:collect', start_date: daysFromNow(-2), end_date: daysFromNow(5) },
          { type: 'a4_candy_ideas:rating', start_date: null, end_date: null },
        ],
        categories: [{ id: 4, name: 'C' }],
        labels: [{ id: 6, name: 'L' }],
      },
    ],
    polls: [{ id: 2, module: 3, creator: 12 }],
    chapters: [{ id: 3, module: 3, creator: 12, name: 'Chapter' }],
    paragraphs: [{ id: 4, chapter: 3, name: 'Paragraph', text: 'Text' }],
    ideas: [{ id: 20, module: 3, creator: 10, name: 'Idea', description: '<p>Hi<script>x()</script></p>', category: 4, labels: [6], created: '2024-03-05T14:07:00Z' }],
    comments: [
      { id: 30, creator: 11, target: { type: 'idea', id: 20 }, comment: 'Nice <b>idea</b>', created: '2024-03-06T10:00:00Z' },
      { id: 31, creator: 10, target: { type: 'comment', id: 30 }, comment: 'Thanks', created: '2024-03-07T10:00:00Z', is_reviewed: true },
      { id: 32, creator: 11, target: { type: 'poll', id: 2 }, comment: 'Poll comment' },
      { id: 33, creator: 11, target: { type: 'paragraph', id: 4 }, comment: 'Gone', is_removed: true },
    ],
    ratings: [{ creator: 11, target: { type: 'idea', id: 20 }, value: 5 }],
    reports: [{ creator: 10, target: { type: 'comment', id: 31 }, description: 'rude' }],
    comment_feedback: [{ id: 40, comment: 30, creator: 12, feedback_text: 'Thanks for this', created: '2024-03-08T10:00:00Z' }],
    follows: [{ creator: 11, project: 7, enabled: false }],
  };
}
