import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Browser } from '../../me/accounts/client.js';
import { signedIn } from '../../manage/world.js';
import { budgetApp, proposalId } from './world.js';

/*
 * The permission matrix of the support and voting phases across two organisations, through HTTP.
 * The expectations are written from the rules as documented (docs/pages.md, docs/dashboard.md), not
 * computed by the production rules. Actors of budgetWorld: admin (superuser), initiator and coinit
 * (organisation 1), moderator and member (participant) of the private project 5, user (no role),
 * other (initiator of organisation 2).
 */
const ACTORS = ['anonymous', 'user', 'member', 'moderator', 'initiator', 'coinit', 'other', 'admin'] as const;
type Actor = (typeof ACTORS)[number];

async function browserOf(app: FastifyInstance, actor: Actor) {
  return actor === 'anonymous' ? new Browser(app) : signedIn(app, actor);
}

/** A status per actor; "login" is the redirect to the login page. */
type Expected = Record<Actor, number | 'login'>;

const P = 34;
const PS = 35;
const ACTIONS: { name: string; run: (b: Browser) => Promise<{ status: number; location?: string }>; expected: Expected }[] = [
  {
    // Supporting and voting: members of the private project only; initiators and superusers moderate but do not take part.
    name: 'support a proposal in a private project',
    run: (b) => b.post('/org/budgeting/module/private-support/support/', { proposal: String(proposalId(PS, 1)), action: 'support' }),
    expected: { anonymous: 'login', user: 404, member: 302, moderator: 302, initiator: 403, coinit: 403, other: 404, admin: 403 },
  },
  {
    name: 'cast a ballot in a private project',
    run: (b) => b.post('/org/budgeting/module/private-vote/ballot/', { proposal: [String(proposalId(P, 1)), String(proposalId(P, 2))] }),
    expected: { anonymous: 'login', user: 404, member: 302, moderator: 302, initiator: 403, coinit: 403, other: 404, admin: 403 },
  },
  {
    name: 'see the support counts of a private project',
    run: (b) => b.get('/org/budgeting/module/private-support/support/'),
    expected: { anonymous: 404, user: 404, member: 200, moderator: 200, initiator: 200, coinit: 200, other: 404, admin: 200 },
  },
  {
    // The code page of a private project is there for code holders without an account.
    name: 'open the code page of a private project',
    run: (b) => b.get('/org/budgeting/module/private-vote/code/'),
    expected: { anonymous: 200, user: 200, member: 200, moderator: 200, initiator: 200, coinit: 200, other: 200, admin: 200 },
  },
  {
    name: 'see the result of a running vote in a private project',
    run: (b) => b.get('/org/budgeting/module/private-vote/result/'),
    expected: { anonymous: 404, user: 404, member: 403, moderator: 200, initiator: 200, coinit: 200, other: 404, admin: 200 },
  },
  {
    name: 'see the result of a finished vote in a public project',
    run: (b) => b.get('/org/budgeting/module/counted/result/'),
    expected: { anonymous: 200, user: 200, member: 200, moderator: 200, initiator: 200, coinit: 200, other: 200, admin: 200 },
  },
  {
    // Vote codes and the voting rules: who may change the project (initiators of its organisation, superusers).
    name: 'generate vote codes',
    // The codes come in the answer, once (issue 36.9).
    run: (b) => b.post('/org/dashboard/modules/private-vote/vote_codes/', { count: '2', format: 'csv' }),
    expected: { anonymous: 'login', user: 403, member: 403, moderator: 403, initiator: 200, coinit: 200, other: 403, admin: 200 },
  },
  {
    name: "generate vote codes (sheet) of the other organisation's module",
    run: (b) => b.post('/other-org/dashboard/modules/foreign-vote/vote_codes/', { count: '2', format: 'html' }),
    expected: { anonymous: 'login', user: 403, member: 403, moderator: 403, initiator: 403, coinit: 403, other: 200, admin: 200 },
  },
  {
    name: 'set the support rules',
    run: (b) => b.post('/org/dashboard/modules/private-support/support_settings/', { support_limit: '3', support_threshold: '1' }),
    // The support phase of the module runs: the rules stay as they are (400), for whoever may open the form.
    expected: { anonymous: 'login', user: 403, member: 403, moderator: 403, initiator: 400, coinit: 400, other: 403, admin: 400 },
  },
  {
    name: "set the voting rules of the other organisation's module",
    run: (b) => b.post('/other-org/dashboard/modules/foreign-vote/voting_settings/', { total_budget: '5', rule: 'percent', min_percent: '1' }),
    expected: { anonymous: 'login', user: 403, member: 403, moderator: 403, initiator: 403, coinit: 403, other: 400, admin: 400 },
  },
];

test('the permission matrix of supports, ballots, vote codes and results, across two organisations', async () => {
  const { app } = await budgetApp();
  const failures: string[] = [];
  for (const actor of ACTORS) {
    const browser = await browserOf(app, actor);
    for (const action of ACTIONS) {
      const answer = await action.run(browser);
      const expected = action.expected[actor];
      const got = answer.status === 302 && answer.location?.startsWith('/accounts/login/') ? 'login' : answer.status;
      if (got !== expected) failures.push(`${actor} ${action.name}: expected ${expected}, got ${got}`);
    }
  }
  assert.deepEqual(failures, []);
});
