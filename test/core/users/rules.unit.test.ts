import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AFTER_LOGIN, canUseBackoffice, isValidEmail, returnsAfterLogin, usernameError } from '../../../src/core/users/rules.js';

test('login and signup come back to the page they were started from, unless it is an accounts page or not a path of this site', () => {
  const cases: [string, boolean][] = [
    ['/', true],
    ['/projects/radwege/', true],
    ['/org/projects/radwege/?page=2', true],
    ['/accounts/login/', false],
    ['/accounts/signup/', false],
    ['//evil.example/', false],
    ['/\\evil.example', false],
    ['/%2F%2Fevil.example', false],
    ['/%09/evil.example', false],
    ['https://evil.example/', false],
    ['projects/', false],
    ['', false],
  ];
  for (const [path, expected] of cases) assert.equal(returnsAfterLogin(path), expected, path);
  assert.equal(AFTER_LOGIN, '/userdashboard/overview/');
});

test('username: letters, digits, spaces and @ . + - _, not starting with a space or sign, 5 to 60 characters', () => {
  const invalid = 'Enter a valid username. This value may contain only letters, digits, spaces and @/./+/-/_ characters.';
  const cases: [string, boolean][] = [
    ['kurts', true],
    ['Kurt Müller', true],
    ['Łukasz_7', true],
    ['_kurt', true],
    ['7kurt', true],
    ['Jörg5', true],
    ['k@b.c+d-e_f', true],
    ['k'.repeat(60), true],
    ['k'.repeat(61), false],
    [' kurt', false],
    ['@kurt', false],
    ['.kurt', false],
    ['+kurt', false],
    ['-kurt', false],
    ['ku/rt', false],
    ['ku<rt', false],
    ['ku\trt', false],
    ['kurt!', false],
  ];
  for (const [name, valid] of cases) assert.equal(usernameError(name), valid ? null : invalid, JSON.stringify(name));
  // Issue 36.8: at least 5 characters (as adhocracy+), except the account's own name from before the rule.
  const short = 'Ensure this value has at least 5 characters.';
  assert.equal(usernameError('kurt'), short);
  assert.equal(usernameError('Jörg'), short);
  assert.equal(usernameError('kurt', 'kurt'), null, 'an unchanged name stays');
  assert.equal(usernameError('kurt', 'Kurt'), short, 'a changed one follows the rule');
  assert.equal(usernameError('ku/r', 'ku/r'), invalid, 'the characters are checked all the same');
});

test('e-mail address: something@host.tld without spaces or angle brackets, at most 254 characters', () => {
  const at254 = `${'a'.repeat(64)}@${'b'.repeat(185)}.org`;
  assert.equal(at254.length, 254);
  const cases: [string, boolean][] = [
    ['a@b.c', true],
    ['kurt.mueller+tag@example.org', true],
    [at254, true],
    [`a${at254}`, false],
    ['a@b', false],
    ['ab.c', false],
    ['a@@b.c', false],
    ['a b@c.d', false],
    ['<a>@b.c', false],
    ['a@b.c\n', false],
  ];
  for (const [email, valid] of cases) assert.equal(isValidEmail(email), valid, JSON.stringify(email));
});

test('the back-office: superusers only', () => {
  assert.equal(canUseBackoffice(null), false);
  assert.equal(canUseBackoffice({ isSuperuser: false }), false);
  assert.equal(canUseBackoffice({ isSuperuser: true }), true);
});
