import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { comments, notifications, organisations, organisationTermsAgreements, outbox, phases, users } from '../../../src/db/schema/index.js';
import { COMMENT_MAX_LENGTH } from '../../../src/features/comments/rules.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from '../../me/accounts/client.js';

/**
 * A busy evening (issue 40): an app's comment and a new idea cost at most two round trips to the
 * database before their answer (a round trip: one statement sent), a comment or reply from the
 * pages' forms at most three (what posting needs with the session's user, the comment, its place
 * in the thread for the redirect). The statements are read when
 * the answer is sent (onSend), so what runs after it (the notice to the idea's creator) is not
 * counted, and is checked to have happened.
 */
async function countingApp(extra: Fixture = {}) {
  const counted = { atAnswer: 0 };
  let queries = () => 0;
  const t = await createTestApp({}, { routes: (app) => app.addHook('onSend', async () => void (counted.atAnswer = queries())) });
  queries = () => t.database.stats.queries;
  await load(
    t.db,
    basicWorldWith({
      ...extra,
      ideas: [{ id: 1, module: 1, creator: 4, name: 'A bench by the pond', description: 'x' }, ...(extra.ideas ?? [])],
      comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'First comment' }, ...(extra.comments ?? [])],
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

/** The world of the forms' tests: idea 1 (project 1, no guests) with comment 1, idea 2 in project 2, which allows guests, with comment 2. */
const FORMS_WORLD = {
  projects: [{ id: 2, slug: 'open-to-guests', name: 'Open to guests', organisation: 1, allow_guests: true, moderators: [3] }],
  modules: [{ id: 2, slug: 'guest-ideas', project: 2, name: 'Guest ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
  ideas: [{ id: 2, module: 2, creator: 4, name: 'Shade by the pond', description: 'x' }],
  comments: [{ id: 2, creator: 6, target: { type: 'idea' as const, id: 2 }, comment: 'Trees, please' }],
};

/** The counting app with the forms' world, and a form post answered with the statements sent before its answer. */
async function formsApp() {
  const counting = await countingApp(FORMS_WORLD);
  const { t, counted } = counting;
  const post = async (browser: Browser, url: string, fields: Record<string, string>, withCsrf = true) => {
    if (withCsrf && !browser.csrf) await browser.get('/accounts/login/');
    const before = t.database.stats.queries;
    const response = await browser.post(url, fields, withCsrf);
    return { response, statements: counted.atAnswer - before };
  };
  const signedIn = async (username: string) => {
    const browser = new Browser(t.app);
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  const commentCount = async () => (await t.db.select().from(comments)).length;
  return { ...counting, post, signedIn, commentCount };
}

/** An idea's page (as its kind's `pages` names it) at a comment. */
const atComment = (ideaId: number, commentId: number) => new RegExp(`^/org/ideas/\\d{4}-${String(ideaId).padStart(5, '0')}/\\?comment=${commentId}#comment-${commentId}$`);

test('a comment and a reply from the idea page’s forms cost at most three statements before their answer; the notices follow after it', async () => {
  const { t, post, signedIn } = await formsApp();
  const user = await signedIn('user');
  for (const round of [1, 2]) {
    const { response, statements } = await post(user, '/comments/on/idea/1/', { comment: `From the form ${round}` });
    assert.equal(response.status, 302, response.text);
    assert.ok(statements <= 3, `round ${round}: ${statements} statements before the answer`);
    const [row] = await t.db.select().from(comments).where(eq(comments.comment, `From the form ${round}`));
    assert.deepEqual([row.creatorId, row.contentType, row.objectPk, row.projectId], [5, 'idea', 1, 1]);
    assert.match(String(response.location), atComment(1, row.id));
  }
  const replied = await post(user, '/comments/1/reply/', { comment: 'A reply from the form' });
  assert.equal(replied.response.status, 302, replied.response.text);
  assert.ok(replied.statements <= 3, `a reply: ${replied.statements} statements before the answer`);
  const [reply] = await t.db.select().from(comments).where(eq(comments.comment, 'A reply from the form'));
  assert.deepEqual([reply.contentType, reply.objectPk, reply.projectId], ['comment', 1, 1]);
  assert.match(String(replied.response.location), atComment(1, reply.id));
  const shown = await user.get(String(replied.response.location));
  assert.match(shown.text, /Your reply has been posted./);
  assert.match(shown.text, /A reply from the form/);
  // After the answers: the idea's creator heard of both comments, the first comment's creator of the reply.
  const mails = await t.db.select({ kind: outbox.kind, recipient: outbox.recipient }).from(outbox);
  assert.deepEqual(mails.map((m) => `${m.kind} ${m.recipient}`).sort(), ['comment_on_content member@example.org', 'comment_on_content member@example.org', 'reply_to_comment other@example.org']);
});

test('the organisation’s terms from a form: without the box ticked the form again, nothing written; ticked, the agreement with the comment in three statements', async () => {
  const { t, post, signedIn, commentCount } = await formsApp();
  await t.db.update(organisations).set({ termsOfUse: '<p>Be kind.</p>' }).where(eq(organisations.id, 1));
  const user = await signedIn('user');
  const refused = await post(user, '/comments/on/idea/1/', { comment: 'Without the box' });
  assert.equal(refused.response.status, 400);
  assert.match(refused.response.text, /Please agree to the organisation&#39;s terms of use.|Please agree to the organisation's terms of use./);
  assert.match(refused.response.text, /Without the box<\/textarea>/);
  assert.equal(await commentCount(), 2);
  assert.equal((await t.db.select().from(organisationTermsAgreements)).length, 0);
  const agreed = await post(user, '/comments/on/idea/1/', { comment: 'With the box', organisation_terms_of_use: 'on' });
  assert.equal(agreed.response.status, 302, agreed.response.text);
  assert.ok(agreed.statements <= 3, `${agreed.statements} statements before the answer`);
  assert.deepEqual((await t.db.select().from(organisationTermsAgreements)).map((a) => [a.userId, a.organisationId]), [[5, 1]]);
  // Agreed once, the form asks no more.
  assert.equal((await post(user, '/comments/1/reply/', { comment: 'Agreed before' })).response.status, 302);
});

test('a bad form shows the form again with its error beside the field and writes nothing', async () => {
  const { post, signedIn, commentCount } = await formsApp();
  const user = await signedIn('user');
  const blank = await post(user, '/comments/on/idea/1/', { comment: '   ' });
  assert.equal(blank.response.status, 400);
  assert.match(blank.response.text, /This field may not be blank./);
  assert.match(blank.response.text, /<a href="\/org\/ideas\/\d{4}-00001\/">Cancel<\/a>/);
  const long = await post(user, '/comments/on/idea/1/', { comment: 'x'.repeat(COMMENT_MAX_LENGTH + 1) });
  assert.equal(long.response.status, 400);
  assert.match(long.response.text, new RegExp(`Ensure this field has no more than ${COMMENT_MAX_LENGTH} characters.`));
  const blankReply = await post(user, '/comments/1/reply/', { comment: '' });
  assert.equal(blankReply.response.status, 400);
  assert.match(blankReply.response.text, /Your reply/);
  assert.match(blankReply.response.text, /<a href="\/org\/ideas\/\d{4}-00001\/\?comment=1#comment-1">Cancel<\/a>/);
  assert.equal(await commentCount(), 2);
});

test('forbidden, unknown, forged and anonymous form posts answer as before and write nothing', async () => {
  const { t, post, signedIn, commentCount } = await formsApp();
  const user = await signedIn('user');
  // A reply to a reply, and to a deleted comment: 403.
  await t.db.insert(comments).values({ id: 10, creatorId: 6, contentType: 'comment', objectPk: 1, comment: 'A reply', projectId: 1 });
  assert.equal((await post(user, '/comments/10/reply/', { comment: 'Deeper' })).response.status, 403);
  await t.db.update(comments).set({ isRemoved: true, comment: '' }).where(eq(comments.id, 2));
  assert.equal((await post(user, '/comments/2/reply/', { comment: 'To nothing' })).response.status, 403);
  // A module whose phase has ended: 403.
  await t.db.update(phases).set({ endDate: new Date(Date.now() - 1000) }).where(eq(phases.moduleId, 1));
  assert.equal((await post(user, '/comments/on/idea/1/', { comment: 'Too late' })).response.status, 403);
  assert.equal((await post(user, '/comments/1/reply/', { comment: 'Too late' })).response.status, 403);
  // Unknown objects: 404.
  assert.equal((await post(user, '/comments/on/idea/99/', { comment: 'Nowhere' })).response.status, 404);
  assert.equal((await post(user, '/comments/99/reply/', { comment: 'Nowhere' })).response.status, 404);
  // Without the form's token: 403; anonymous: to the login page.
  assert.equal((await post(user, '/comments/on/idea/2/', { comment: 'Forged' }, false)).response.status, 403);
  const anonymous = await post(new Browser(t.app), '/comments/on/idea/2/', { comment: 'Who?' });
  assert.equal(anonymous.response.status, 302);
  assert.match(String(anonymous.response.location), /^\/accounts\/login\/\?next=/);
  assert.equal(await commentCount(), 3);
});

test('a guest comments and replies from the forms in three statements where the project allows guests, and gets a 403 elsewhere', async () => {
  const { t, post, commentCount } = await formsApp();
  const guest = new Browser(t.app);
  await guest.get('/accounts/guest/?next=/');
  assert.equal((await guest.post('/accounts/guest/', { next: '/', terms_of_use: 'on' })).status, 302);
  const commented = await post(guest, '/comments/on/idea/2/', { comment: 'A guest’s comment' });
  assert.equal(commented.response.status, 302, commented.response.text);
  assert.ok(commented.statements <= 3, `${commented.statements} statements before the answer`);
  const replied = await post(guest, '/comments/2/reply/', { comment: 'A guest’s reply' });
  assert.equal(replied.response.status, 302, replied.response.text);
  assert.ok(replied.statements <= 3, `${replied.statements} statements before the answer`);
  const written = await t.db.select({ comment: comments.comment, isGuest: users.isGuest }).from(comments).innerJoin(users, eq(users.id, comments.creatorId)).where(eq(users.isGuest, true));
  assert.deepEqual(written.map((w) => w.comment).sort(), ['A guest’s comment', 'A guest’s reply']);
  assert.equal((await post(guest, '/comments/on/idea/1/', { comment: 'Sneaked' })).response.status, 403);
  assert.equal((await post(guest, '/comments/1/reply/', { comment: 'Sneaked' })).response.status, 403);
  assert.equal(await commentCount(), 4);
});
