import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { modules } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { BIO_MAX_LENGTH, EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../../src/core/users/rules.js';
import { COMMENT_CATEGORIES_MAX_LENGTH, COMMENT_MAX_LENGTH } from '../../src/features/comments/input.js';
import { IDEA_LIMITS } from '../../src/features/idealike/input.js';
import { CUSTOM_FIELD_LIMITS } from '../../src/features/customfields/rules.js';
import { FEEDBACK_TEXT_MAX_LENGTH } from '../../src/features/comments/feedback-rules.js';
import { ORGANISATION_NAME_MAX_LENGTH } from '../../src/core/organisations/rules.js';
import { PHASE_DESCRIPTION_MAX, PHASE_NAME_MAX } from '../../src/core/modules/rules.js';
import { type FieldSpec, PROJECT_FIELDS } from '../../src/manage/projects/input.js';
import { MODULE_LIMITS } from '../../src/manage/projects/module-input.js';
import { REPORT_MAX_LENGTH } from '../../src/features/reports/rules.js';
import { BODY_LIMITS } from '../../src/http/limits.js';
import { IMAGE_LIMITS } from '../../src/media/images.js';
import type { TextLimit } from '../../src/text/limits.js';
import { USERSVC_LIMITS } from '../../src/usersvc/rules.js';
import { FORM_FIELD_MAX_LENGTH } from '../../src/web/forms.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const n = (value: number) => value.toLocaleString('en');
const text = (limit: TextLimit | number) =>
  typeof limit === 'number' ? `${n(limit)} characters` : limit.maxBytes !== undefined ? `${n(limit.maxBytes)} bytes (UTF-8)` : `${n(limit.maxChars ?? 0)} characters`;
const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/** The limits table of docs/security.md, made from the definitions themselves. */
function limitsTable(): string {
  const rows: [string, string][] = [
    ['idea: name', text(IDEA_LIMITS.name)],
    ['idea: description (rich text)', text(IDEA_LIMITS.description)],
    ['idea: image copyright', text(IDEA_LIMITS.image_copyright)],
    ['idea: moderator feedback (rich text)', text(IDEA_LIMITS.moderator_feedback_text)],
    ['custom field: question', text(CUSTOM_FIELD_LIMITS.label)],
    ['custom field: help text', text(CUSTOM_FIELD_LIMITS.help_text)],
    ['custom field: choice', text(CUSTOM_FIELD_LIMITS.choice)],
    ['custom field: answer', text(CUSTOM_FIELD_LIMITS.answer)],
    ['comment: text', text(COMMENT_MAX_LENGTH)],
    ['comment: categories', text(COMMENT_CATEGORIES_MAX_LENGTH)],
    ['moderator feedback on a comment', text(FEEDBACK_TEXT_MAX_LENGTH)],
    ['report: description', text(REPORT_MAX_LENGTH)],
    ['account: username', text(USERNAME_MAX_LENGTH)],
    ['account: e-mail address', text(EMAIL_MAX_LENGTH)],
    ['profile: biography', text(BIO_MAX_LENGTH)],
    ['organisation: name', text(ORGANISATION_NAME_MAX_LENGTH)],
    ['user/session service: name', text(USERSVC_LIMITS.name)],
    ['user/session service: e-mail address', text(USERSVC_LIMITS.email)],
    ['user/session service: password', text(USERSVC_LIMITS.password)],
    ...Object.entries(PROJECT_FIELDS as Record<string, FieldSpec>)
      .filter(([, spec]) => spec.max !== undefined || spec.maxBytes !== undefined)
      .map(([name, spec]): [string, string] => [`project: ${name}`, text({ maxChars: spec.max, maxBytes: spec.maxBytes })]),
    ['module: name', text(MODULE_LIMITS.name)],
    ['module: description', text(MODULE_LIMITS.description)],
    ['phase: name', text(PHASE_NAME_MAX)],
    ['phase: description', text(PHASE_DESCRIPTION_MAX)],
    ['any other form field (outer bound)', text(FORM_FIELD_MAX_LENGTH)],
    ['image: upload', mb(IMAGE_LIMITS.maxBytes)],
    ['image: pixels (all frames)', `${n(IMAGE_LIMITS.maxPixels)} pixels`],
    ['image: stored size', `${n(IMAGE_LIMITS.maxSide)} pixels on the longest side`],
    ['request body', mb(BODY_LIMITS.bodyBytes)],
    ['multipart: files, each', `${BODY_LIMITS.files}, ${mb(BODY_LIMITS.fileBytes)}`],
    ['multipart: fields, each', `${BODY_LIMITS.fields}, ${n(BODY_LIMITS.fieldBytes)} bytes`],
  ];
  return ['| what | at most |', '|---|---|', ...rows.map(([what, max]) => `| ${what} | ${max} |`)].join('\n');
}

test('docs/security.md lists every limit as defined', () => {
  const docs = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
  const table = limitsTable();
  assert.ok(docs.includes(table), `docs/security.md must contain this table (paste it under "Limits"):\n\n${table}\n`);
});

test('a text over its limit is a field error (API) or a message beside the field (page), nothing stored; a body over the limit is a 413', async () => {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  const user = await tokenHeader(t.db, 5);
  const ideaCount = async () => (await t.db.select({ n: count() }).from(ideas))[0].n;
  const maxBytes = IDEA_LIMITS.description.maxBytes;
  // Under the limit in characters, over it in bytes: the limit is counted in UTF-8.
  const tooLong = 'ä'.repeat(maxBytes / 2 + 1);

  const api = await t.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: user, payload: { name: 'Long', description: tooLong, category: 1 } });
  assert.equal(api.status, 400, api.text);
  assert.deepEqual(api.body, { description: [`Ensure this text is no longer than ${maxBytes / 1000} KB.`] });
  const fits = await t.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: user, payload: { name: 'Fits', description: 'ä'.repeat(maxBytes / 2 - 10), category: 1 } });
  assert.equal(fits.status, 201, fits.text);

  const browser = new Browser(t.app);
  await browser.login('user', 'user-password');
  const [module] = await t.db.select().from(modules).where(eq(modules.id, 1));
  const page = await browser.postMultipart(`/org/ideas/create/module/${module.slug}/`, { name: 'Long', description: tooLong, category: '1' });
  assert.equal(page.status, 400);
  assert.match(page.text, /id="id_description_errors"[^>]*><li>Ensure this text is no longer than 50 KB\./);
  assert.equal(await ideaCount(), 1);
  const settings = await browser.post('/account/', { username: 'user', email: 'user@example.org', bio: 'b'.repeat(BIO_MAX_LENGTH + 1) });
  assert.equal(settings.status, 400);
  assert.match(settings.text, /id="id_language".*<li>Select a valid choice\.<\/li>.*id="id_bio".*<li>Ensure this value has at most 255 characters\.<\/li>/s);
  assert.match(settings.text, /maxlength="255"[^>]*>[^<]*<\/textarea>\s*<p class="help" id="id_bio_help">Tell us about yourself in 255 characters!/);

  const huge = await t.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: { ...user, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x', description: 'y'.repeat(BODY_LIMITS.bodyBytes) }) });
  assert.equal(huge.status, 413);
  assert.deepEqual(huge.body, { detail: 'Request body is too large (at most 6 MB, a file at most 5 MB).' });
  assert.equal(await ideaCount(), 1);
});
