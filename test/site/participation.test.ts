import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { comments, outbox, ratings, reports } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { ideaPath } from '../../src/core/urls.js';
import { tn } from '../../src/i18n/index.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

// One app for the file (each test uses its own ideas), so that the file stays fast.
const t = await createTestApp();
const world = basicWorld();
await load(t.db, {
  ...world,
  projects: [
    ...(world.projects ?? []),
    { id: 2, slug: 'semi', name: 'Semi-public project', organisation: 1, access: 'SEMIPUBLIC', participants: [4] },
    { id: 3, slug: 'rating', name: 'Rating project', organisation: 1 },
  ],
  modules: [
    ...(world.modules ?? []).map((m) => ({ ...m, slug: 'ideas-module' })),
    { id: 2, slug: 'semi-module', project: 2, name: 'Semi ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] },
    {
      id: 3,
      slug: 'rating-module',
      project: 3,
      name: 'Rate ideas',
      phases: [
        { type: 'a4_candy_ideas:collect', start_date: daysFromNow(-10), end_date: daysFromNow(-5) },
        { type: 'a4_candy_ideas:rating', start_date: daysFromNow(-5), end_date: daysFromNow(5) },
      ],
    },
    { id: 4, slug: 'later-module', project: 3, name: 'Later', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(20), end_date: daysFromNow(30) }] },
  ],
});

async function as(username: string, headers: Record<string, string> = {}) {
  const browser = new Browser(t.app, headers);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  return browser;
}

async function idea(name: string, fields: Partial<typeof ideas.$inferInsert> = {}) {
  const [row] = await t.db.insert(ideas).values({ moduleId: 1, creatorId: 5, name, description: `<p>${name}</p>`, ...fields }).returning();
  return { ...row, path: ideaPath('org', row.created, row.id) };
}

const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer();

test('a citizen submits an idea with an image through the form; errors come back beside the fields with the values kept', async () => {
  const user = await as('user');
  const form = await user.get('/org/ideas/create/module/ideas-module/');
  assert.equal(form.status, 200);
  assert.match(form.text, /Submit a new idea for this project/);
  assert.match(form.text, /enctype="multipart\/form-data"/);
  assert.match(form.text, /data-rich-text/);

  // Missing category (the module has categories: D2), no rights confirmation for the image, a too small image.
  const refused = await user.postMultipart('/org/ideas/create/module/ideas-module/', { name: 'Benches', description: 'More <em>benches</em>', image_copyright: 'Me' }, { name: 'image', filename: 'a.png', data: await image(700, 500), type: 'image/png' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_category_errors"[^>]*><li>This field is required\./);
  assert.match(refused.text, /id="id_right_of_use_errors"/);
  assert.match(refused.text, /value="Benches"/);
  assert.match(refused.text, /More &lt;em>benches&lt;\/em>/);
  const small = await user.postMultipart('/org/ideas/create/module/ideas-module/', { name: 'Benches', description: 'x', category: '2', right_of_use: 'on' }, { name: 'image', filename: 'a.png', data: await image(100, 100), type: 'image/png' });
  assert.equal(small.status, 400);
  assert.match(small.text, /at least 600 pixels wide/);

  const created = await user.postMultipart('/org/ideas/create/module/ideas-module/', { name: 'Benches', description: 'More <em>benches</em><script>x</script>', category: '2', labels: '1', image_copyright: 'Ann Author', right_of_use: 'on' }, { name: 'image', filename: 'a.png', data: await image(700, 500), type: 'image/png' });
  assert.equal(created.status, 302);
  const [row] = await t.db.select().from(ideas).where(eq(ideas.name, 'Benches'));
  assert.equal(created.location, ideaPath('org', row.created, row.id));
  assert.equal(row.categoryId, 2);
  assert.equal(row.imageCopyright, 'Ann Author');
  assert.doesNotMatch(row.description, /script/);
  const page = await user.get(created.location ?? '');
  assert.match(page.text, /Your idea has been saved\./);
  assert.match(page.text, new RegExp(`<img src="/media/${row.image}"`), 'the image is shown');
  assert.match(page.text, /© Ann Author/);
  assert.match(page.text, /Reference No\.: \d{4}-\d{5}/);
  assert.match(page.text, /Urgent/);
  const media = await t.app.inject({ url: `/media/${row.image}` });
  assert.equal(media.statusCode, 200);

  // Edit: the form comes filled in; the rights box is ticked because there is an image.
  const edit = await user.get(`${created.location}update/`);
  assert.match(edit.text, /value="Benches"/);
  assert.match(edit.text, /id="id_right_of_use" type="checkbox" name="right_of_use" value="on" checked/);
  const saved = await user.postMultipart(`${created.location}update/`, { name: 'Benches by the pond', description: 'x', category: '1', right_of_use: 'on', image_copyright: 'Ann Author' });
  assert.equal(saved.status, 302);
  assert.equal((await t.db.select().from(ideas).where(eq(ideas.id, row.id)))[0].name, 'Benches by the pond');

  // Others may neither edit nor delete it.
  const other = await as('other');
  assert.equal((await other.get(`${created.location}update/`)).status, 403);
  assert.equal((await other.post(`${created.location}delete/`, {})).status, 403);

  // Delete asks first, then deletes and goes to the project.
  const confirm = await user.get(`${created.location}delete/`);
  assert.match(confirm.text, /Do you really want to delete the idea/);
  const deleted = await user.post(`${created.location}delete/`, {});
  assert.equal(deleted.location, '/org/projects/project/');
  assert.equal((await t.db.select().from(ideas).where(eq(ideas.id, row.id))).length, 0);
  assert.match((await user.get('/org/projects/project/')).text, /Your idea has been deleted\./);
});

test('idea forms only where §A7 allows: not in a rating phase, not in a semi-public project, anonymous to login', async () => {
  const user = await as('user');
  assert.equal((await user.get('/org/ideas/create/module/rating-module/')).status, 403);
  assert.equal((await user.get('/org/ideas/create/module/semi-module/')).status, 403);
  const anonymous = await new Browser(t.app).get('/org/ideas/create/module/ideas-module/');
  assert.equal(anonymous.location, '/accounts/login/?next=/org/ideas/create/module/ideas-module/');
  // Guidance on the list: visitors are asked to log in, members get the button, others nothing.
  assert.match((await new Browser(t.app).get('/org/projects/module/ideas-module/')).text, /Log in to submit your idea/);
  assert.match((await user.get('/org/projects/module/ideas-module/')).text, />Submit your idea</);
  assert.doesNotMatch((await user.get('/org/projects/module/rating-module/')).text, /Submit your idea/);
  // Moderators may add at any time.
  const moderator = await as('initiator');
  assert.equal((await moderator.get('/org/ideas/create/module/rating-module/')).status, 200);
  // A module that has not started says when it starts.
  assert.match((await user.get('/org/projects/module/later-module/')).text, /Participation is not possible at the moment\. It starts on/);
});

test('the idea list filters by category and label, orders, searches the title and pages by 15, all in the URL', async () => {
  await t.db.insert(ideas).values(Array.from({ length: 17 }, (_, i) => ({ moduleId: 3, creatorId: 5, name: `Listed ${String(i).padStart(2, '0')}`, description: 'x', categoryId: null, created: new Date(Date.UTC(2024, 0, i + 1)) })));
  const [popular] = await t.db.select().from(ideas).where(eq(ideas.name, 'Listed 03'));
  await t.db.insert(ratings).values({ contentType: 'idea', objectPk: popular.id, creatorId: 6, value: 1 });
  const browser = new Browser(t.app);
  const first = await browser.get('/org/projects/module/rating-module/');
  assert.match(first.text, /17 ideas/);
  assert.equal(first.text.match(/class="idea-item"/g)?.length, 15);
  assert.match(first.text, /Page 1 of 2/);
  assert.match(first.text, /href="\/org\/projects\/module\/rating-module\/\?page=2#index"/);
  assert.ok(first.text.indexOf('Listed 16') < first.text.indexOf('Listed 15'), 'newest first');
  const second = await browser.get('/org/projects/module/rating-module/?page=2');
  assert.equal(second.text.match(/class="idea-item"/g)?.length, 2);
  assert.equal((await browser.get('/org/projects/module/rating-module/?page=3')).status, 404);
  const byPopularity = await browser.get('/org/projects/module/rating-module/?ordering=-positive_rating_count');
  assert.match(byPopularity.text, /<option value="-positive_rating_count" selected>Most popular/);
  assert.ok(byPopularity.text.indexOf('Listed 03') < byPopularity.text.indexOf('Listed 16'));
  assert.match(byPopularity.text, /1 agrees</);
  const search = await browser.get('/org/projects/module/rating-module/?search=listed%2012');
  assert.match(search.text, /1 idea</);
  assert.match(search.text, /Listed 12/);
  assert.match((await browser.get('/org/projects/module/rating-module/?search=%25')).text, /Nothing to show/);
  assert.equal((await browser.get('/org/projects/module/rating-module/?ordering=no-such-order')).status, 400);
  // The module page's `ordering` also takes the topic list's values (issue 36.13); an idea list keeps its default order then.
  const topicOrder = await browser.get('/org/projects/module/rating-module/?ordering=name');
  assert.equal(topicOrder.status, 200);
  assert.match(topicOrder.text, /<option value="-created" selected>/);
  // "Most popular" is offered only where ideas are rated; elsewhere the address falls back to the newest first, as the form shows.
  const unrated = await browser.get('/org/projects/module/ideas-module/?ordering=-positive_rating_count');
  assert.doesNotMatch(unrated.text, /Most popular/);
  assert.match(unrated.text, /<option value="-created" selected>Most recent/);

  const traffic = await idea('Traffic idea', { categoryId: 1 });
  const parks = await idea('Parks idea', { categoryId: 2 });
  const byCategory = await browser.get('/org/projects/module/ideas-module/?category=1');
  assert.match(byCategory.text, /Traffic idea/);
  assert.doesNotMatch(byCategory.text, /Parks idea/);
  assert.match(byCategory.text, /<option value="1" selected>Traffic/);
  await t.db.execute(`insert into idea_labels (idea_id, label_id) values (${parks.id}, 1)`);
  const byLabel = await browser.get('/org/projects/module/ideas-module/?label=1');
  assert.match(byLabel.text, /Parks idea/);
  assert.doesNotMatch(byLabel.text, /Traffic idea/);
  assert.ok(traffic);
});

test('rating an idea: up, again up withdraws, down switches; only in a rating phase', async () => {
  const [rated] = await t.db.select().from(ideas).where(eq(ideas.name, 'Listed 05'));
  const path = ideaPath('org', rated.created, rated.id);
  const user = await as('user');
  const page = await user.get(path);
  assert.match(page.text, /aria-pressed="false">0 agree/);
  await user.post(`${path}rate/`, { value: '1' });
  assert.match((await user.get(path)).text, /aria-pressed="true">1 agrees/);
  await user.post(`${path}rate/`, { value: '1' });
  assert.match((await user.get(path)).text, /aria-pressed="false">0 agree/);
  await user.post(`${path}rate/`, { value: '-1' });
  const mine = await t.db.select().from(ratings).where(and(eq(ratings.contentType, 'idea'), eq(ratings.objectPk, rated.id), eq(ratings.creatorId, 5)));
  assert.deepEqual(mine.map((r) => r.value), [-1]);
  // In the collect phase of the first module ideas cannot be rated.
  const collect = await idea('Not rateable');
  assert.equal((await user.post(`${collect.path}rate/`, { value: '1' })).status, 403);
  const anonymous = await new Browser(t.app).post(`${path}rate/`, { value: '1' });
  assert.equal(anonymous.location, `/accounts/login/?next=${path}`);
});

test('comments: reply one level, edit and delete own, rate, report with a reason; line breaks kept', async () => {
  const target = await idea('Discussed idea');
  const other = await as('other');
  const posted = await other.post('/comments/on/idea/' + target.id + '/', { comment: 'First line\nsecond line' });
  const [comment] = await t.db.select().from(comments).where(eq(comments.comment, 'First line\nsecond line'));
  assert.equal(posted.location, `${target.path}?comment=${comment.id}#comment-${comment.id}`);
  const page = await other.get(`${target.path}?comment=${comment.id}`);
  assert.match(page.text, /<p class="pre-line comment-text">First line\nsecond line<\/p>/);
  assert.match(page.text, new RegExp(`id="comment-${comment.id}" class="comment highlighted"`));

  const user = await as('user');
  const replied = await user.post(`/comments/${comment.id}/reply/`, { comment: 'An answer' });
  assert.equal(replied.status, 302);
  const [reply] = await t.db.select().from(comments).where(eq(comments.comment, 'An answer'));
  assert.equal(reply.contentType, 'comment');
  assert.equal((await user.post(`/comments/${reply.id}/reply/`, { comment: 'Too deep' })).status, 403, 'a reply cannot be answered');
  assert.doesNotMatch((await user.get(target.path)).text, new RegExp(`comments/${reply.id}/reply/`));

  assert.equal((await user.post(`/comments/${comment.id}/edit/`, { comment: 'not mine' })).status, 403);
  const blank = await other.post(`/comments/${comment.id}/edit/`, { comment: '   ' });
  assert.equal(blank.status, 400);
  assert.match(blank.text, /This field may not be blank\./);
  await other.post(`/comments/${comment.id}/edit/`, { comment: 'Edited text' });
  assert.match((await other.get(target.path)).text, /Edited text<\/p>/);

  await user.post(`/comments/${comment.id}/rate/`, { value: '1' });
  assert.match((await user.get(target.path)).text, /aria-pressed="true">1 agrees/);

  const reported = await user.post(`/comments/${comment.id}/report/`, { description: 'Off topic' });
  assert.match((await user.get(reported.location ?? '')).text, /The moderators have been told/);
  const [report] = await t.db.select().from(reports).where(and(eq(reports.contentType, 'comment'), eq(reports.objectPk, comment.id)));
  assert.equal(report.description, 'Off topic');

  await user.post(`/comments/${reply.id}/delete/`, {});
  const after = await user.get(target.path);
  assert.match(after.text, /Deleted by creator/);
  assert.doesNotMatch(after.text, /An answer/);
  assert.equal((await user.post(`/comments/${reply.id}/edit/`, { comment: 'back' })).status, 403);
});

test('long threads: 20 comments a page, and a ?comment= link opens the page that shows it', async () => {
  const target = await idea('Busy idea');
  const rows = await t.db
    .insert(comments)
    .values(Array.from({ length: 25 }, (_, i) => ({ creatorId: 6, contentType: 'idea' as const, objectPk: target.id, projectId: 1, comment: `Remark ${i}`, created: new Date(Date.UTC(2024, 0, i + 1)) })))
    .returning();
  const browser = new Browser(t.app);
  const first = await browser.get(target.path);
  assert.match(first.text, /Page 1 of 2/);
  assert.doesNotMatch(first.text, /Remark 0</);
  const oldest = await browser.get(`${target.path}?comment=${rows[0].id}`);
  assert.match(oldest.text, /Page 2 of 2/);
  assert.match(oldest.text, new RegExp(`id="comment-${rows[0].id}" class="comment highlighted"`));
  assert.equal((await browser.get(`${target.path}?comment_page=3`)).status, 404);
});

test('moderators set the idea status and statement (mailed to the author), block and give feedback on comments from the page', async () => {
  const target = await idea('Moderated idea');
  const moderator = await as('moderator');
  const form = await moderator.get(`${target.path}moderate/`);
  assert.equal(form.status, 200);
  assert.equal((await (await as('other')).get(`${target.path}moderate/`)).status, 403);
  const saved = await moderator.post(`${target.path}moderate/`, { moderator_status: 'ACCEPTED', moderator_feedback_text: '<p>We will do it</p>' });
  assert.equal(saved.location, target.path);
  const page = await moderator.get(target.path);
  assert.match(page.text, /badge-green">Accepted</);
  assert.match(page.text, /Official feedback/);
  assert.match(page.text, /<p>We will do it<\/p>/);
  const [mail] = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'idea_feedback')));
  assert.match(mail.body, /the status "Accepted"/);
  assert.equal((await moderator.post(`${target.path}moderate/`, { moderator_status: 'MAYBE' })).status, 400);

  const [comment] = await t.db.insert(comments).values({ creatorId: 6, contentType: 'idea', objectPk: target.id, projectId: 1, comment: 'Rude words' }).returning();
  await moderator.post(`/comments/${comment.id}/moderate/`, { action: 'block' });
  await moderator.post(`/comments/${comment.id}/feedback/`, { feedback_text: 'Please stay friendly' });
  const visitor = await new Browser(t.app).get(target.path);
  assert.match(visitor.text, /Blocked by moderator/);
  assert.doesNotMatch(visitor.text, /Rude words/);
  assert.match(visitor.text, /Please stay friendly/);
  assert.match((await moderator.get(target.path)).text, /Rude words/, 'moderators still read the blocked text');
  assert.equal((await (await as('user')).post(`/comments/${comment.id}/moderate/`, { action: 'unblock' })).status, 403);
});

test('plural forms follow the language rules, in both languages', () => {
  assert.equal(tn('en', '%(count)s report', '%(count)s reports', 1), '1 report');
  assert.equal(tn('en', '%(count)s report', '%(count)s reports', 0), '0 reports');
  assert.equal(tn('de', '%(count)s agrees', '%(count)s agree', 1), '1 Zustimmung');
  assert.equal(tn('de', '%(count)s agrees', '%(count)s agree', 2), '2 Zustimmungen');
  assert.equal(tn('de', '%(count)s comment', '%(count)s comments', 1.5), '1.5 Kommentare');
});

test('the editor toolbar speaks the page language and draws its buttons with glyphs every font has (no emoji)', async () => {
  const user = await as('user');
  user.cookies.set('language', 'de'); // the switcher's cookie, without changing the user's stored language
  const form = await user.get('/org/ideas/create/module/ideas-module/');
  const labels = JSON.parse(/data-rich-text="([^"]*)"/.exec(form.text)?.[1]?.replace(/&quot;/g, '"') ?? '{}') as Record<string, string>;
  assert.deepEqual(labels, { toolbar: 'Textformatierung', bold: 'Fett', italic: 'Kursiv', list: 'Aufzählung', link: 'Link einfügen', url: 'Linkadresse (https://...)' });
  const script = (await t.app.inject({ url: '/static/richtext.js' })).body;
  assert.match(script, /createElementNS\(SVG, 'svg'\)/, 'the link button is a drawn icon');
  assert.match(script, /^[\t\n\r -~]*$/, 'button texts are ASCII (the bullet is written \\u2022), so no font shows an empty box');
});

test('every page links its favicon, and /favicon.ico leads there', async () => {
  const page = await new Browser(t.app).get('/org/');
  assert.match(page.text, /<link rel="icon" href="\/static\/favicon.svg"/);
  assert.equal((await t.app.inject({ url: '/static/favicon.svg' })).statusCode, 200);
  assert.equal((await t.app.inject({ url: '/favicon.ico' })).headers.location, '/static/favicon.svg');
});

test('a semi-public project: everyone reads, only invited users take part', async () => {
  const [semi] = await t.db.insert(ideas).values({ moduleId: 2, creatorId: 4, name: 'Semi idea', description: 'x' }).returning();
  const path = ideaPath('org', semi.created, semi.id);
  const anonymous = await new Browser(t.app).get('/org/projects/semi/');
  assert.equal(anonymous.status, 200);
  assert.match(anonymous.text, /Invited users can actively participate/);
  const user = await as('user');
  assert.match((await user.get(path)).text, /Only invited users can actively participate\./);
  assert.equal((await user.post(`/comments/on/idea/${semi.id}/`, { comment: 'Me too' })).status, 403);
  const member = await as('member');
  assert.equal((await member.post(`/comments/on/idea/${semi.id}/`, { comment: 'Me too' })).status, 302);
});
