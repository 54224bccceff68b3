import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { comments, notifications, outbox } from '../../../src/db/schema/index.js';
import { basicWorldWith, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from '../../me/accounts/client.js';

/**
 * A busy evening (issue 40): an app's comment and a new idea cost at most two round trips to the
 * database before their answer (a round trip: one statement sent). The statements are read when
 * the answer is sent (onSend), so what runs after it (the notice to the idea's creator) is not
 * counted, and is checked to have happened.
 */
async function countingApp() {
  const counted = { atAnswer: 0 };
  let queries = () => 0;
  const t = await createTestApp({}, { routes: (app) => app.addHook('onSend', async () => void (counted.atAnswer = queries())) });
  queries = () => t.database.stats.queries;
  await load(
    t.db,
    basicWorldWith({
      ideas: [{ id: 1, module: 1, creator: 4, name: 'A bench by the pond', description: 'x' }],
      comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'First comment' }],
    }),
  );
  /** Sends a request; answers it with the statements sent before its answer. */
  const send = async (options: Parameters<typeof t.request>[0]) => {
    const before = queries();
    const response = await t.request(options);
    return { response, statements: counted.atAnswer - before };
  };
  return { t, send, counted };
}

test('a comment and a reply through the API cost two round trips before their answer; the notice follows after it', async () => {
  const { t, send } = await countingApp();
  const headers = await tokenHeader(t.db, 5);
  for (const round of [1, 2]) {
    const { response, statements } = await send({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers, payload: { comment: `Comment ${round}` } });
    assert.equal(response.status, 201, response.text);
    assert.ok(statements <= 2, `round ${round}: ${statements} statements before the answer`);
    const body = response.body as { id: number; comment: string; user_name: string; child_comments: unknown[]; user_info: { is_users_own_comment: boolean } };
    assert.deepEqual([body.comment, body.user_name, body.child_comments, body.user_info.is_users_own_comment], [`Comment ${round}`, 'user', [], true]);
  }
  const reply = await send({ method: 'POST', url: '/api/contenttypes/8/objects/1/comments/', headers, payload: { comment: 'A reply' } });
  assert.equal(reply.response.status, 201, reply.response.text);
  assert.ok(reply.statements <= 2, `a reply: ${reply.statements} statements before the answer`);
  // After the answers: the idea's creator heard of both comments, the first comment's creator of the reply.
  const mails = await t.db.select({ kind: outbox.kind, recipient: outbox.recipient }).from(outbox);
  assert.deepEqual(mails.map((m) => `${m.kind} ${m.recipient}`).sort(), ['comment_on_content member@example.org', 'comment_on_content member@example.org', 'reply_to_comment other@example.org']);
  assert.equal((await t.db.select().from(notifications).where(eq(notifications.recipientId, 4))).length, 2);
  assert.equal((await t.db.select().from(comments)).length, 4);
});

test('a comment by a token the database does not know is a 401, on an unknown object a 404, with nothing written', async () => {
  const { t, send } = await countingApp();
  const unknown = await send({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: { authorization: `Token ${'0'.repeat(40)}` }, payload: { comment: 'x' } });
  assert.equal(unknown.response.status, 401);
  const headers = await tokenHeader(t.db, 5);
  assert.equal((await send({ method: 'POST', url: '/api/contenttypes/4/objects/99/comments/', headers, payload: { comment: 'x' } })).response.status, 404);
  assert.equal((await send({ method: 'POST', url: '/api/contenttypes/4/objects/99/comments/', headers: { authorization: `Token ${'0'.repeat(40)}` }, payload: { comment: 'x' } })).response.status, 401);
  assert.equal((await t.db.select().from(comments)).length, 1);
});

test('a new idea through the API costs two round trips before its answer', async () => {
  const { t, send } = await countingApp();
  const headers = await tokenHeader(t.db, 5);
  for (const round of [1, 2]) {
    const { response, statements } = await send({ method: 'POST', url: '/api/modules/1/ideas/', headers, payload: { name: `Idea ${round}`, description: 'A new idea', category: 1 } });
    assert.equal(response.status, 201, response.text);
    assert.ok(statements <= 2, `round ${round}: ${statements} statements before the answer`);
    assert.equal((response.body as { name: string }).name, `Idea ${round}`);
  }
});

test('a comment from the idea page’s form: the page’s reads, then one statement for the comment and all it brings, no transaction', async () => {
  const { t, counted } = await countingApp();
  const user = new Browser(t.app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  await user.get('/accounts/login/');
  const before = t.database.stats.queries;
  const posted = await user.post('/comments/on/idea/1/', { comment: 'From the form' });
  assert.equal(posted.status, 302);
  // The session, the object's page path, its target and module context, the terms, the comment, its path for the redirect.
  assert.ok(counted.atAnswer - before <= 8, `${counted.atAnswer - before} statements before the answer`);
  assert.equal((await t.db.select().from(outbox)).length, 1, 'the idea’s creator is told after the answer');
});
