import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IncomingHttpHeaders } from 'node:http';
import { type Clearance, credentialsOf, emailProblem, isAdmin, isAdminOrThatService, isAdminOrThatUser, isStoredUserId, isThatUser, normaliseUserName, parseUserId, userNameProblem } from '../../src/usersvc/rules.js';

test('credentials: exactly user+password, service+password, a session alone or nothing; every other combination of the four headers is bad', () => {
  // u = X-Thentos-User, s = -Service, t = -Session, p = -Password; every subset of the four.
  const expected: Record<string, string> = {
    '': 'anonymous',
    u: 'bad',
    s: 'bad',
    t: 'session',
    p: 'bad',
    us: 'bad',
    ut: 'bad',
    up: 'user',
    st: 'bad',
    sp: 'service',
    tp: 'bad',
    ust: 'bad',
    usp: 'bad',
    utp: 'bad',
    stp: 'bad',
    ustp: 'bad',
  };
  const names: Record<string, string> = { u: 'x-thentos-user', s: 'x-thentos-service', t: 'x-thentos-session', p: 'x-thentos-password' };
  for (const [combination, kind] of Object.entries(expected)) {
    const headers: IncomingHttpHeaders = { host: 'usersvc', 'content-type': 'application/json' };
    for (const letter of combination) headers[names[letter]] = `${letter}-value`;
    assert.equal(credentialsOf(headers).kind, kind, combination || 'none');
  }
});

test('credentials carry the header values; an empty header still counts as present', () => {
  assert.deepEqual(credentialsOf({ 'x-thentos-user': 'kurt', 'x-thentos-password': 'secret' }), { kind: 'user', name: 'kurt', password: 'secret' });
  assert.deepEqual(credentialsOf({ 'x-thentos-service': 'svc', 'x-thentos-password': 'key' }), { kind: 'service', serviceId: 'svc', key: 'key' });
  assert.deepEqual(credentialsOf({ 'x-thentos-session': 'tok' }), { kind: 'session', token: 'tok' });
  assert.deepEqual(credentialsOf({ 'x-thentos-session': '' }), { kind: 'session', token: '' });
  assert.deepEqual(credentialsOf({ 'x-thentos-session': '', 'x-thentos-password': '' }), { kind: 'bad' });
});

test('clearances: admin, that user, admin or that user, admin or that service', () => {
  const who: Record<string, Clearance> = {
    anonymous: { kind: 'anonymous' },
    user5: { kind: 'user', userId: 5, isAdmin: false },
    user6: { kind: 'user', userId: 6, isAdmin: false },
    admin6: { kind: 'user', userId: 6, isAdmin: true },
    serviceA: { kind: 'service', serviceId: 'a' },
    serviceB: { kind: 'service', serviceId: 'b' },
  };
  // [isAdmin, isThatUser(5), isAdminOrThatUser(5), isAdminOrThatService('a')]
  const table: Record<string, [boolean, boolean, boolean, boolean]> = {
    anonymous: [false, false, false, false],
    user5: [false, true, true, false],
    user6: [false, false, false, false],
    admin6: [true, false, true, true],
    serviceA: [false, false, false, true],
    serviceB: [false, false, false, false],
  };
  for (const [name, clearance] of Object.entries(who)) {
    assert.deepEqual([isAdmin(clearance), isThatUser(clearance, 5), isAdminOrThatUser(clearance, 5), isAdminOrThatService(clearance, 'a')], table[name], name);
  }
});

test('a user id in a path: decimal digits only, at most 20 of them; a stored id is an int32 of at least 1', () => {
  const parsed: [string, number | null][] = [
    ['1', 1],
    ['42', 42],
    ['2147483648', 2147483648],
    ['9'.repeat(20), Number('9'.repeat(20))],
    ['9'.repeat(21), null],
    ['', null],
    ['-1', null],
    ['+1', null],
    ['1.5', null],
    [' 1', null],
    ['1e3', null],
    ['0x10', null],
  ];
  for (const [raw, expected] of parsed) assert.equal(parseUserId(raw), expected, JSON.stringify(raw));
  const stored: [number, boolean][] = [
    [0, false],
    [1, true],
    [2147483647, true],
    [2147483648, false],
    [-1, false],
    [1.5, false],
    [Number.NaN, false],
    [2 ** 53, false],
  ];
  for (const [id, expected] of stored) assert.equal(isStoredUserId(id), expected, String(id));
});

test('user names are stored trimmed and in Unicode NFC; blank ones and control characters are refused', () => {
  assert.equal(normaliseUserName('  Kurt '), 'Kurt');
  assert.equal(normaliseUserName('Jose\u0301'), 'Jos\u00e9');
  const cases: [string, string | null][] = [
    ['kurt', null],
    [' Kurt Müller ', null],
    ['', 'user name must not be empty'],
    ['  \t', 'user name must not be empty'],
    ['ku\u0000rt', 'user name must not contain control characters'],
    ['ku\nrt', 'user name must not contain control characters'],
    ['kurt\u007f', 'user name must not contain control characters'],
  ];
  for (const [name, expected] of cases) assert.equal(userNameProblem(name), expected, JSON.stringify(name));
});

test('e-mail addresses: one @ with something on both sides, no white space or control characters', () => {
  const cases: [string, boolean][] = [
    ['a@b', true],
    ['kurt@example.org', true],
    ['kurt', false],
    ['@example.org', false],
    ['kurt@', false],
    ['ku rt@example.org', false],
    ['kurt@exa@mple.org', false],
    ['kurt@example.org\u0000', false],
    ['kurt@example.org\u007f', false],
  ];
  for (const [email, valid] of cases) assert.equal(emailProblem(email), valid ? null : 'email is not an e-mail address', JSON.stringify(email));
});
