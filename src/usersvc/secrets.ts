import { hash, verify } from '@node-rs/argon2';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `Algorithm.Argon2id` of @node-rs/argon2 (an ambient const enum, which isolatedModules cannot read). */
const ARGON2ID = 2;

/** A random, URL-safe string: `bytes` random bytes in base64url (no padding). */
function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** Session tokens: 192 bits. */
export const newSessionToken = () => randomToken(24);
/** Service ids and service keys: 144 bits each, 24 characters. */
export const newServiceId = () => randomToken(18);
export const newServiceKey = () => randomToken(18);

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function passwordMatches(password: string, encoded: string): Promise<boolean> {
  try {
    return await verify(encoded, password);
  } catch {
    return false; // a malformed stored hash never matches
  }
}

let dummyHash: Promise<string> | null = null;

/** Spends the time of one real check, so that unknown user names cannot be told apart by timing. */
export async function passwordAgainstNothing(password: string): Promise<void> {
  dummyHash ??= hashPassword('usersvc-timing-equaliser');
  await passwordMatches(password, await dummyHash);
}

/**
 * Service keys are random with 144 bits of entropy, so a plain SHA-256 is enough to make a stolen
 * table useless (nothing to guess), and it keeps every service-authenticated call cheap.
 */
export function hashServiceKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function serviceKeyMatches(key: string, keyHash: string): boolean {
  const given = Buffer.from(hashServiceKey(key), 'hex');
  const stored = Buffer.from(keyHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
