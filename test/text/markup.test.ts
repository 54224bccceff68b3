import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const IDEA_PAGE = '/org/ideas/2024-00001/';
const COMMENTS = '/api/contenttypes/4/objects/1/comments/';

async function world() {
  const t = await createTestApp();
  await load(t.db, {
    ...basicWorld(),
    ideas: [{ id: 1, module: 1, creator: 5, name: 'Idea', description: '<p>text</p>', created: '2024-05-01T10:00:00Z' }],
  });
  return t;
}

type Comment = { id: number; comment: string; comment_categories: Record<string, string> };

test('F15: entities in a comment never turn into markup in its plain text', async () => {
  const t = await world();
  const user = await tokenHeader(t.db, 5);
  for (const sent of ['&lt;img src=x onerror=alert(1)&gt;hello', '&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;hello', '&#60;b&#62;hello']) {
    const created = await t.request({ method: 'POST', url: COMMENTS, headers: user, payload: { comment: sent } });
    assert.equal(created.status, 201, sent);
    const text = (created.body as Comment).comment;
    assert.doesNotMatch(text, /<[a-z/!?]/i, sent);
    assert.match(text, /hello$/, sent);
  }
  const plain = await t.request({ method: 'POST', url: COMMENTS, headers: user, payload: { comment: 'a < b & c > d' } });
  assert.equal((plain.body as Comment).comment, 'a < b & c > d', 'ordinary text keeps its characters');
});

test("F15: an idea's plain-text description in the API holds no markup made by decoding", async () => {
  const t = await world();
  const user = await tokenHeader(t.db, 5);
  const created = await t.request({
    method: 'POST',
    url: '/api/modules/1/ideas/',
    headers: user,
    payload: { name: 'Encoded', description: '<p>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;fine</p>', category: 1 },
  });
  assert.equal(created.status, 201);
  const description = (created.body as { description: string }).description;
  assert.doesNotMatch(description, /<[a-z/!?]/i);
  assert.match(description, /fine/);
});

test('F15: comment categories are checked against the allowed set and stored in one form', async () => {
  const t = await world();
  const user = await tokenHeader(t.db, 5);
  const post = (categories: string) => t.request({ method: 'POST', url: COMMENTS, headers: user, payload: { comment: 'hi', comment_categories: categories } });
  const bad = await post('<img src=x onerror=alert(1)>');
  assert.equal(bad.status, 400);
  assert.ok((bad.body as Record<string, unknown>).comment_categories);
  assert.equal((await post('[sug,xyz]')).status, 400);
  const categories = async (sent: string) => Object.entries(((await post(sent)).body as Comment).comment_categories);
  assert.deepEqual(await categories('[sug,que]'), [['sug', 'Suggestion'], ['que', 'Question']]);
  assert.deepEqual(await categories(' que , sug, que'), [['que', 'Question'], ['sug', 'Suggestion']]);
  assert.deepEqual(await categories(''), []);
  const created = (await post('[not]')).body as Comment;
  const changed = await t.request({ method: 'PATCH', url: `${COMMENTS}${created.id}/`, headers: user, payload: { comment_categories: 'bogus' } });
  assert.equal(changed.status, 400);
});

test('F14: rich text keeps images from our own media only (no tracking pixels, no remote content)', async () => {
  const t = await world();
  const user = await tokenHeader(t.db, 5);
  const description = [
    '<p>before</p>',
    '<img src="https://tracker.example/pixel.gif" width="1" height="1">',
    '<img src="//tracker.example/p.gif">',
    '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
    '<img src="/media/ideas/images/own.png" alt="own">',
    '<p>after</p>',
  ].join('');
  const changed = await t.request({ method: 'PATCH', url: '/api/modules/1/ideas/1/', headers: user, payload: { description } });
  assert.equal(changed.status, 200);
  const page = await new Browser(t.app).get(IDEA_PAGE);
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.text, /tracker\.example|data:image/);
  assert.match(page.text, /<img src="\/media\/ideas\/images\/own\.png" alt="own"/);
  assert.match(page.text, /before[\s\S]*after/);
});

test('F15: moderator feedback shows on the idea page as the sanitised rich text it is, not as escaped tags', async () => {
  const t = await world();
  const user = await tokenHeader(t.db, 5);
  const comment = (await t.request({ method: 'POST', url: COMMENTS, headers: user, payload: { comment: 'a question' } })).body as Comment;
  const moderator = await tokenHeader(t.db, 3);
  const feedback = await t.request({
    method: 'POST',
    url: `/api/comments/${comment.id}/moderatorfeedback/`,
    headers: moderator,
    payload: { feedback_text: '<p>Thanks, <strong>noted</strong>.</p><script>alert(1)</script><img src="https://tracker.example/x.gif">' },
  });
  assert.equal(feedback.status, 201);
  const page = await new Browser(t.app).get(IDEA_PAGE);
  assert.match(page.text, /<p>Thanks, <strong>noted<\/strong>\.<\/p>/);
  assert.doesNotMatch(page.text, /&lt;strong&gt;|<script>alert|tracker\.example/);
});
