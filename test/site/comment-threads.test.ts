import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { comments } from '../../src/db/schema/index.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';

const IDEA = '/org/ideas/2024-00001/';
const DEBATE_IDEA = '/org/ideas/2024-00002/';

/** Idea 1: four comments (apples with two answers, bananas with two up votes, cherries with a down vote, a blocked apple); idea 2 in a debate module. */
function threadWorld(): Fixture {
  const world = basicWorld();
  const at = (day: number) => `2024-03-0${day}T10:00:00Z`;
  return {
    ...world,
    modules: [
      ...(world.modules ?? []),
      { id: 2, slug: 'debate', project: 1, name: 'Debate', blueprint_type: 'DB', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] },
    ],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Fruit', description: 'fruit', created: at(1) },
      { id: 2, module: 2, creator: 5, name: 'Debate idea', description: 'talk', created: at(1) },
    ],
    comments: [
      { id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Apples are great', created: at(2) },
      { id: 2, creator: 5, target: { type: 'idea', id: 1 }, comment: 'Bananas', created: at(3) },
      { id: 3, creator: 4, target: { type: 'idea', id: 1 }, comment: 'Cherries', created: at(4) },
      { id: 4, creator: 6, target: { type: 'idea', id: 1 }, comment: 'apples, blocked', is_blocked: true, created: at(5) },
      { id: 10, creator: 4, target: { type: 'comment', id: 1 }, comment: 'Pears instead', created: at(6) },
      { id: 11, creator: 5, target: { type: 'comment', id: 1 }, comment: 'Agreed', created: at(7) },
    ],
    ratings: [
      { creator: 3, target: { type: 'comment', id: 2 }, value: 1 },
      { creator: 4, target: { type: 'comment', id: 2 }, value: 1 },
      { creator: 3, target: { type: 'comment', id: 3 }, value: -1 },
    ],
  };
}

/** The order of the top-level comments on a page (replies left out). */
const order = (html: string) => [...html.replace(/<ul class="replies"[\s\S]*?<\/ul>/g, '').matchAll(/<li><article id="comment-(\d+)"/g)].map((m) => Number(m[1]));

test('comment threads: orderings, search and categories, all in the address', async () => {
  const { app, db } = await createTestApp();
  await load(db, threadWorld());
  const visitor = new Browser(app);

  const newest = await visitor.get(IDEA);
  assert.deepEqual(order(newest.text), [4, 3, 2, 1]);
  assert.match(newest.text, /<form method="get" action="\/org\/ideas\/2024-00001\/#comments-heading" class="filter-bar"/);
  assert.doesNotMatch(newest.text, /name="comment_category"/);
  const orderings: [string, number[]][] = [
    ['created', [1, 2, 3, 4]],
    ['-positive_rating_count', [2, 4, 3, 1]],
    ['-negative_rating_count', [3, 4, 2, 1]],
    ['-child_comment_count', [1, 4, 3, 2]],
    ['-last_discussed', [1, 4, 3, 2]],
  ];
  for (const [ordering, expected] of orderings) {
    const page = await visitor.get(`${IDEA}?comment_ordering=${ordering}`);
    assert.deepEqual(order(page.text), expected, ordering);
    assert.match(page.text, new RegExp(`<option value="${ordering}" selected`));
  }
  assert.equal((await visitor.get(`${IDEA}?comment_ordering=random`)).status, 400);

  // Search: text (any case) or exact username, a comment whose reply matches; never blocked ones.
  const apples = await visitor.get(`${IDEA}?comment_search=APPLES`);
  assert.deepEqual(order(apples.text), [1]);
  assert.match(apples.text, /1 comment matches\./);
  assert.match(apples.text, /value="APPLES"/);
  assert.deepEqual(order((await visitor.get(`${IDEA}?comment_search=pears`)).text), [1]);
  assert.deepEqual(order((await visitor.get(`${IDEA}?comment_search=member&comment_ordering=created`)).text), [1, 3]);
  assert.deepEqual(order((await visitor.get(`${IDEA}?comment_search=memb`)).text), []);
  assert.match((await visitor.get(`${IDEA}?comment_search=%25`)).text, /0 comments match\./);

  // Pages keep the state (20 a page: 25 more comments).
  await db.insert(comments).values(Array.from({ length: 25 }, (_, i) => ({ creatorId: 5, contentType: 'idea' as const, objectPk: 1, comment: `Apples ${i}`, projectId: 1 })));
  const first = await visitor.get(`${IDEA}?comment_search=apples&comment_ordering=created`);
  assert.match(first.text, /href="\/org\/ideas\/2024-00001\/\?comment_ordering=created&amp;comment_search=apples&amp;comment_page=2#comments-heading"/);
  assert.equal(order((await visitor.get(`${IDEA}?comment_search=apples&comment_ordering=created&comment_page=2`)).text).length, 6);

  // Categories: only in the debate module, chosen in the form, checked by the comment input rule, shown and filtered.
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  const debate = await user.get(DEBATE_IDEA);
  assert.match(debate.text, /name="comment_categories" value="que"/);
  assert.doesNotMatch((await user.get(IDEA)).text, /name="comment_categories"/);
  const refused = await user.post('/comments/on/idea/2/', { comment: 'Why?', comment_categories: 'why' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /&quot;why&quot; is not a valid choice\./);
  assert.match(refused.text, />Why\?<\/textarea>/);
  const posted = await user.post('/comments/on/idea/2/', { comment: 'Why not?', comment_categories: 'que' });
  assert.equal(posted.status, 302);
  await user.post('/comments/on/idea/2/', { comment: 'Plain' });
  const [stored] = await db.select({ categories: comments.commentCategories }).from(comments).where(eq(comments.comment, 'Why not?'));
  assert.equal(stored.categories, '[que]');
  // On an idea module the field is ignored.
  await user.post('/comments/on/idea/1/', { comment: 'No categories here', comment_categories: 'que' });
  const [ignored] = await db.select({ categories: comments.commentCategories }).from(comments).where(eq(comments.comment, 'No categories here'));
  assert.equal(ignored.categories, '');
  const questions = await user.get(`${DEBATE_IDEA}?comment_category=que`);
  assert.match(questions.text, /<option value="que" selected/);
  assert.match(questions.text, /Why not\?/);
  assert.doesNotMatch(questions.text, /Plain/);
  assert.match(questions.text, /<span class="badge">Question<\/span>/);
  assert.match((await new Browser(app, { 'accept-language': 'de' }).get(`${DEBATE_IDEA}?comment_category=que`)).text, /Frage/);
});

test("a blocked comment: visitors see neither its text nor its author; the project's moderators see both on the discussion page", async () => {
  const { app, db } = await createTestApp();
  await load(db, threadWorld());
  const blocked = (html: string) => /<article id="comment-4"[^]*?<\/article>/.exec(html)?.[0] ?? '';
  const visitor = blocked((await new Browser(app).get(IDEA)).text);
  assert.match(visitor, /unknown user/);
  assert.doesNotMatch(visitor, /apples, blocked|href="\/profile\/other\/"/);
  for (const lang of ['en', 'de']) {
    const moderator = new Browser(app, { 'accept-language': lang });
    assert.equal((await moderator.login('moderator', 'moderator-password')).status, 302);
    const seen = blocked((await moderator.get(IDEA)).text);
    assert.match(seen, /apples, blocked/);
    assert.match(seen, /<a href="\/profile\/other\/">other<\/a>/, lang);
    assert.doesNotMatch(seen, /unknown user|unbekannt/i, lang);
  }
});
