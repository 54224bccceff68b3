import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNewsletterForm } from '../../../src/manage/newsletters/rules.js';

const PROJECTS = [3, 5];
const valid = { sender_name: 'Team', sender_email: 'team@example.org', project: '5', subject: 'News', body: '<p>Hello</p>' };
const errorsOf = (changes: Record<string, string>) => readNewsletterForm({ ...valid, ...changes }, PROJECTS).errors;
const REQUIRED = ['This field is required.'];
const TOO_LONG = ['Ensure this field has no more than %(max)s characters.'];

test('a complete newsletter form is read into trimmed values and a cleaned body', () => {
  const read = readNewsletterForm({ ...valid, sender_name: '  Team ', subject: ' News\n' }, PROJECTS);
  assert.deepEqual(read.errors, {});
  assert.deepEqual(read.input, { senderName: 'Team', senderEmail: 'team@example.org', projectId: 5, subject: 'News', body: '<p>Hello</p>' });
  const scripted = readNewsletterForm({ ...valid, body: '<p>Hello</p><script>alert(1)</script>' }, PROJECTS).input;
  assert.ok(scripted && !scripted.body.includes('<script'), 'scripts are cleaned away');
});

test('sender name, project, subject and body are required (blank counts as missing); the sender e-mail is optional', () => {
  for (const field of ['sender_name', 'project', 'subject', 'body']) {
    for (const empty of ['', '   ']) {
      const read = readNewsletterForm({ ...valid, [field]: empty }, PROJECTS);
      assert.deepEqual(read.errors, { [field]: REQUIRED }, `${field} ${JSON.stringify(empty)}`);
      assert.equal(read.input, null);
    }
  }
  const missing = readNewsletterForm({}, PROJECTS).errors;
  assert.deepEqual(Object.keys(missing).sort(), ['body', 'project', 'sender_name', 'subject']);
  assert.deepEqual(errorsOf({ sender_email: '' }), {});
});

test('a body is empty without text, unless it holds an image', () => {
  const cases: [string, Record<string, string[]>][] = [
    ['<p> </p>', { body: REQUIRED }],
    ['<p><br></p>', { body: REQUIRED }],
    ['<p><img src="/m/a.png" alt="A map"></p>', {}],
    ['<p>x</p>', {}],
  ];
  for (const [body, expected] of cases) assert.deepEqual(errorsOf({ body }), expected, body);
});

test('every image of the body needs an alternative text that is not blank', () => {
  const ALT = { body: ['Please add an alternative text for all images.'] };
  const cases: [string, Record<string, string[]>][] = [
    ['<img src="/m/a.png" alt="A">', {}],
    ['<img src="/m/a.png">', ALT],
    ['<img src="/m/a.png" alt="">', ALT],
    ['<img src="/m/a.png" alt="  ">', ALT],
    ['<p>Hi</p><img src="/m/a.png" alt="A"><img src="/m/b.png">', ALT],
    ['<IMG SRC="/m/a.png" ALT="A">', {}],
  ];
  for (const [body, expected] of cases) assert.deepEqual(errorsOf({ body }), expected, body);
});

test('sender name, sender e-mail and subject: at most 254 characters', () => {
  const email254 = `${'a'.repeat(64)}@${'b'.repeat(185)}.org`;
  assert.equal(email254.length, 254);
  for (const field of ['sender_name', 'subject']) {
    assert.deepEqual(errorsOf({ [field]: 'x'.repeat(254) }), {}, `${field} 254`);
    assert.deepEqual(errorsOf({ [field]: 'x'.repeat(255) }), { [field]: TOO_LONG }, `${field} 255`);
  }
  assert.deepEqual(errorsOf({ sender_email: email254 }), {}, 'e-mail 254');
  assert.deepEqual(errorsOf({ sender_email: `a${email254}` }), { sender_email: TOO_LONG }, 'e-mail 255: only the length is told');
});

test('the sender e-mail must be an address; the project one of the projects offered', () => {
  const INVALID = { sender_email: ['Enter a valid email address.'] };
  for (const email of ['team', 'team@example', 'team @example.org', '@example.org']) assert.deepEqual(errorsOf({ sender_email: email }), INVALID, email);
  const CHOICE = { project: ['Select a valid choice.'] };
  for (const project of ['4', '0', 'five', '-5']) assert.deepEqual(errorsOf({ project }), CHOICE, project);
  assert.deepEqual(errorsOf({ project: '3' }), {});
  assert.deepEqual(readNewsletterForm(valid, []).errors, CHOICE, 'no projects offered');
});
