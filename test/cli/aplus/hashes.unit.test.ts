import assert from 'node:assert/strict';
import { test } from 'node:test';
import { djangoHash } from '../../../src/cli/aplus/phases.js';
import { checkPassword, hashPassword } from '../../../src/core/users/passwords.js';
import { OLD_HASH } from './dumps.js';

test('a Django PBKDF2-SHA256 hash of any iteration count is kept as it is and checks the old password', async () => {
  assert.deepEqual(djangoHash(OLD_HASH), { password: OLD_HASH, usable: true });
  assert.deepEqual(await checkPassword('password', djangoHash(OLD_HASH).password), { ok: true, needsUpgrade: true });
});

test("Django's argon2 hash (`argon2$argon2id$…`) becomes the PHC string it wraps and checks the old password", async () => {
  const phc = await hashPassword('Altes-Passwort-1');
  const converted = djangoHash(`argon2${phc}`);
  assert.deepEqual(converted, { password: phc, usable: true });
  assert.equal((await checkPassword('Altes-Passwort-1', converted.password)).ok, true);
});

test('an unusable password (`!…`) or an old hash kind cannot be checked: the account signs in by password reset or its social account', () => {
  for (const encoded of ['!Xq3kT0Yc9', 'md5$salt$abc', 'bcrypt_sha256$$2b$12$abc', '', null]) assert.deepEqual(djangoHash(encoded), { password: '', usable: false });
});
