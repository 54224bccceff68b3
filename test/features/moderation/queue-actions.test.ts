import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { commentFeedback, comments } from '../../../src/db/schema/index.js';
import { createComment } from '../../../src/features/comments/services.js';
import { Browser } from '../../me/accounts/client.js';
import { basicWorld, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

const DETAIL = '/userdashboard/moderation/detail/project/';

async function world() {
  const t = await createTestApp();
  await load(t.db, {
    ...basicWorld(),
    ideas: [{ id: 1, module: 1, creator: 5, name: 'Trees', description: 'x', category: 1, created: '2024-03-05T14:07:00Z' }],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'First line\nsecond line' },
      { id: 2, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Another' },
    ],
    comment_feedback: [{ comment: 1, creator: 3, feedback_text: '<p>Thanks</p>' }],
  });
  const as = async (username: string) => {
    const browser = new Browser(t.app);
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { ...t, as };
}

test('moderators highlight a comment and delete moderator feedback from the queue and from the discussion; the queue keeps its filter and page and its line breaks', async () => {
  const { as, db, app } = await world();
  const moderator = await as('moderator');
  const queue = await moderator.get(`${DETAIL}?filter=unread`);
  assert.match(queue.text, /<p class="pre-line comment-text">First line\nsecond line<\/p>/);
  assert.match(queue.text, /<input type="hidden" name="action" value="mark"\/><input type="hidden" name="filter" value="unread"\/>/);

  const marked = await moderator.post(`${DETAIL}comments/2/`, { action: 'mark', filter: 'unread', page: '1' });
  assert.equal(marked.location, `${DETAIL}?filter=unread#comment-2`);
  assert.equal((await db.select().from(comments).where(eq(comments.id, 2)))[0].isModeratorMarked, true);
  assert.match((await moderator.get(`${DETAIL}?filter=unread`)).text, /highlighted[\s\S]*value="unmark"/);
  const idea = await new Browser(app).get('/org/ideas/2024-00001/');
  assert.match(idea.text, /id="comment-2"[\s\S]*?<span class="badge">highlighted<\/span>/, 'the discussion shows the highlight');

  // From the queue, the feedback form comes back to the queue's place.
  const deleteForm = /<form method="post" action="\/comments\/1\/feedback\/delete\/"[^>]*>[\s\S]*?name="next" value="([^"]+)"/.exec((await moderator.get(`${DETAIL}?filter=unread`)).text);
  assert.ok(deleteForm);
  assert.equal(deleteForm[1], `${DETAIL}?filter=unread#comment-1`);
  assert.equal((await (await as('user')).post('/comments/1/feedback/delete/', {})).status, 403, 'only moderators');
  const deleted = await moderator.post('/comments/1/feedback/delete/', { next: deleteForm[1] });
  assert.equal(deleted.location, `${DETAIL}?filter=unread#comment-1`);
  assert.equal((await db.select().from(commentFeedback)).length, 0);
  assert.equal((await moderator.post('/comments/1/feedback/delete/', {})).status, 404, 'no feedback left');

  // From the discussion: the buttons are there for moderators.
  const discussion = await moderator.get('/org/ideas/2024-00001/');
  assert.match(discussion.text, /<input type="hidden" name="action" value="unmark"\/><button type="submit" class="btn-secondary">Remove highlight<\/button>/);
  assert.equal((await moderator.post('/comments/2/moderate/', { action: 'unmark' })).status, 302);
  assert.equal((await db.select().from(comments).where(eq(comments.id, 2)))[0].isModeratorMarked, false);
});

test('a comment its author deleted is not listed as unread; an emptied last page leads to the page now last', async () => {
  const { as, db } = await world();
  const user = await as('user');
  assert.equal((await user.post('/comments/1/delete/', {})).status, 302);
  const moderator = await as('moderator');
  const unread = await moderator.get(`${DETAIL}?filter=unread`);
  assert.doesNotMatch(unread.text, /id="comment-1"/);
  assert.match(unread.text, /id="comment-2"/);

  await db.transaction(async (tx) => {
    for (let i = 0; i < 50; i++) await createComment(tx, { creatorId: 6, target: { type: 'idea', id: 1 }, comment: `Extra ${i}` });
  });
  const last = await moderator.get(`${DETAIL}?filter=unread&page=2`);
  const [, id] = /id="comment-(\d+)"/.exec(last.text) ?? [];
  assert.ok(id, 'one comment on page 2');
  const read = await moderator.post(`${DETAIL}comments/${id}/`, { action: 'read', filter: 'unread', page: '2' });
  assert.equal(read.location, `${DETAIL}?filter=unread#comment-${id}`, 'page 2 is empty now: page 1');
});
