import { createHmac, randomBytes } from 'node:crypto';

/**
 * Vote codes: 16 characters from an alphabet of 32 that cannot be mistaken for each other when
 * printed (no I, O, 0, 1), from the operating system's random source: 80 bits, so that guessing a
 * code is hopeless (and tries are throttled). Printed in groups of four: `ABCD-EFGH-JKLM-NPQR`.
 */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 16;

/** A new code, as stored (no dashes). 32 letters = 5 bits: a byte's low 5 bits pick one without bias. */
export function newVoteCode(): string {
  const bytes = randomBytes(LENGTH);
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte & 31];
  return code;
}

/** A code as typed (spaces, dashes, small letters) in its stored form, or null when it cannot be one. */
export function normaliseVoteCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== LENGTH) return null;
  for (const char of code) if (!ALPHABET.includes(char)) return null;
  return code;
}

/**
 * A code's keyed hash, as stored (issue 36.9): HMAC-SHA-256 under a key derived from SECRET_KEY, so
 * that a copy of the database (a backup, a dump for support) holds no usable code. Codes carry 80
 * random bits, so no salt is needed and the hash can be looked up.
 */
export function voteCodeHash(secretKey: string, code: string): string {
  const key = createHmac('sha256', secretKey).update('allmende.vote-code').digest();
  return createHmac('sha256', key).update(code).digest('hex');
}

/** A code in its printed form. */
export const formatVoteCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;
