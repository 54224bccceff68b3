import { pbkdf2Sync } from 'node:crypto';
import type { Fixture } from '../../../src/cli/fixture-schema.js';

/** A Django `pbkdf2_sha256$…` hash, as the reference platform stored passwords. */
export function djangoHash(password: string, salt = 'saltsaltsalt', iterations = 1000): string {
  return `pbkdf2_sha256$${iterations}$${salt}$${pbkdf2Sync(password, salt, iterations, 32, 'sha256').toString('base64')}`;
}

/**
 * Users for the authentication tests: 1 alice (active, confirmed), 2 bob (active, confirmed),
 * 3 carol (not confirmed), 4 dave (inactive), 5 erin (Django pbkdf2 hash), 6 frank (no password).
 */
export function authWorld(): Fixture {
  return {
    users: [
      { id: 1, username: 'alice', email: 'alice@example.org', password: 'alice-password', language: 'en' },
      { id: 2, username: 'Bob', email: 'bob@example.org', password: 'bob-password', language: 'de' },
      { id: 3, username: 'carol', email: 'carol@example.org', password: 'carol-password', email_verified: false },
      { id: 4, username: 'dave', email: 'dave@example.org', password: 'dave-password', is_active: false },
      { id: 5, username: 'erin', email: 'erin@example.org', password_hash: djangoHash('erin-password') },
      { id: 6, username: 'frank', email: 'frank@example.org' },
    ],
  };
}

export const json = (payload: Record<string, unknown>) => ({ payload, headers: { 'content-type': 'application/json' } });
export const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
