import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenHeader } from '../../fixtures.js';
import { dashboardApp, signedIn } from '../../manage/world.js';
import { pollApp, pollWorld } from './world.js';

/*
 * The poll's permission matrix across two organisations, through HTTP: every actor × every poll ×
 * every new action (see, vote, edit). The expectations are written from adhocracy4's a4polls rules
 * (§5.2) and the refusal convention (404 what one may not see, 401 where logging in helps, 403
 * else), not by calling the production rules.
 */

type Actor = 'anonymous' | 'admin' | 'initiator' | 'moderator' | 'member' | 'user' | 'foreignInitiator';
const USER: Record<Exclude<Actor, 'anonymous'>, number> = { admin: 1, initiator: 2, moderator: 3, member: 4, user: 5, foreignInitiator: 6 };
const ACTORS: Actor[] = ['anonymous', 'admin', 'initiator', 'moderator', 'member', 'user', 'foreignInitiator'];

interface PollCase {
  poll: number;
  name: string;
  question: number;
  choice: number;
  see: Actor[];
  vote: Actor[];
  edit: Actor[];
  /** Whether an anonymous visitor could vote after logging in (then 401, else 403). */
  loginHelps: boolean;
}

const ALL = ACTORS;
const CASES: PollCase[] = [
  { poll: 1, name: 'public, voting', question: 1, choice: 1, see: ALL, vote: ['admin', 'initiator', 'moderator', 'member', 'user', 'foreignInitiator'], edit: ['admin', 'initiator'], loginHelps: true },
  { poll: 4, name: 'public, voting over', question: 6, choice: 9, see: ALL, vote: ['admin', 'initiator', 'moderator'], edit: ['admin', 'initiator'], loginHelps: false },
  { poll: 3, name: 'private, voting', question: 5, choice: 8, see: ['admin', 'initiator', 'member'], vote: ['admin', 'initiator', 'member'], edit: ['admin', 'initiator'], loginHelps: true },
  { poll: 5, name: 'draft project', question: 7, choice: 10, see: ['admin', 'initiator'], vote: ['admin', 'initiator'], edit: ['admin', 'initiator'], loginHelps: true },
  { poll: 2, name: "the other organisation's, voting", question: 4, choice: 6, see: ALL, vote: ['admin', 'initiator', 'moderator', 'member', 'user', 'foreignInitiator'], edit: ['admin', 'foreignInitiator'], loginHelps: true },
];

const refusal = (actor: Actor, sees: boolean, loginHelps: boolean) => (!sees ? 404 : actor === 'anonymous' ? (loginHelps ? 401 : 403) : 403);

test('the poll permission matrix: see, vote and edit, every actor × poll, across two organisations', async () => {
  const world = pollWorld();
  world.modules = [...(world.modules ?? []), { id: 14, slug: 'draft-poll', project: 2, name: 'Draft poll', description: 'Soon', blueprint_type: 'PO', phases: [{ type: 'a4polls:voting', name: 'V', description: 'V', start_date: new Date(Date.now() - 86400000).toISOString(), end_date: new Date(Date.now() + 86400000).toISOString() }] }];
  world.polls = [...(world.polls ?? []), { id: 5, module: 14 }];
  world.questions = [...(world.questions ?? []), { id: 7, poll: 5, label: 'Draft question' }];
  world.choices = [...(world.choices ?? []), { id: 10, question: 7, label: 'Draft choice' }];
  const t = await dashboardApp(world);
  const headers = new Map<Actor, Record<string, string>>([['anonymous', {}]]);
  for (const actor of ACTORS) if (actor !== 'anonymous') headers.set(actor, await tokenHeader(t.db, USER[actor]));
  const problems: string[] = [];
  for (const c of CASES) {
    for (const actor of ACTORS) {
      const h = headers.get(actor) ?? {};
      const sees = c.see.includes(actor);
      const seen = await t.request({ method: 'GET', url: `/api/polls/${c.poll}/`, headers: h });
      const vote = await t.request({ method: 'POST', url: `/api/polls/${c.poll}/vote/`, headers: h, payload: { votes: { [c.question]: { choices: [c.choice], other_choice_answer: '', open_answer: '' } } } });
      const edit = await t.request({ method: 'PATCH', url: `/api/polls/${c.poll}/`, headers: h, payload: { hide_results_until_finished: false } });
      const expected = {
        see: sees ? 200 : 404,
        vote: c.vote.includes(actor) ? 201 : refusal(actor, sees, c.loginHelps),
        edit: c.edit.includes(actor) ? 200 : refusal(actor, sees, true),
      };
      for (const [action, got] of [['see', seen.status], ['vote', vote.status], ['edit', edit.status]] as const) {
        if (got !== expected[action]) problems.push(`${c.name}: ${actor} ${action} → ${got}, expected ${expected[action]}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("the poll editor in the dashboard: the organisation's initiators, not its moderators nor another organisation's initiator", async () => {
  const t = await pollApp();
  for (const [username, allowed] of [['initiator', true], ['admin', true], ['moderator', false], ['other', false], ['member', false]] as const) {
    const browser = await signedIn(t.app, username);
    const page = await browser.get('/org/dashboard/modules/poll/polls/');
    assert.equal(page.status === 200, allowed, `${username}: ${page.status}`);
  }
});
