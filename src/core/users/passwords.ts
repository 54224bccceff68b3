import { hash, verify } from '@node-rs/argon2';
import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);
/** `Algorithm.Argon2id` of @node-rs/argon2 (an ambient const enum, which isolatedModules cannot read). */
const ARGON2ID = 2;

/** The argon2id hashes this process computed (tests count the work of a request with it: finding F13). */
export const passwordWork = { hashes: 0 };

export async function hashPassword(password: string): Promise<string> {
  passwordWork.hashes++;
  return hash(password, { algorithm: ARGON2ID });
}

interface PasswordCheck {
  ok: boolean;
  /** True when the stored hash is of an older kind and should be replaced by argon2id. */
  needsUpgrade: boolean;
}

async function verifyDjangoPbkdf2(password: string, encoded: string): Promise<boolean> {
  const [, iterations, salt, expected] = encoded.split('$');
  const rounds = Number(iterations);
  if (!salt || !expected || !Number.isInteger(rounds) || rounds < 1 || rounds > 10_000_000) return false;
  const derived = await pbkdf2Async(password, salt, rounds, 32, 'sha256');
  const wanted = Buffer.from(expected, 'base64');
  return wanted.length === derived.length && timingSafeEqual(wanted, derived);
}

/** Checks a password against an argon2 hash or a Django `pbkdf2_sha256$…` hash. */
export async function checkPassword(password: string, encoded: string): Promise<PasswordCheck> {
  try {
    if (encoded.startsWith('$argon2')) return { ok: await verify(encoded, password), needsUpgrade: false };
    if (encoded.startsWith('pbkdf2_sha256$')) {
      const ok = await verifyDjangoPbkdf2(password, encoded);
      return { ok, needsUpgrade: ok };
    }
  } catch {
    // a malformed stored hash never matches
  }
  return { ok: false, needsUpgrade: false };
}

let dummyHash: Promise<string> | null = null;

/** Spends the time of one real check, so that unknown accounts cannot be told apart by timing. */
export async function checkPasswordAgainstNothing(password: string): Promise<void> {
  dummyHash ??= hashPassword('allmende-timing-equaliser');
  await checkPassword(password, await dummyHash);
}

export function isValidPasswordHash(encoded: string): boolean {
  return /^\$argon2(id|i|d)\$/.test(encoded) || /^pbkdf2_sha256\$\d+\$[^$]+\$[A-Za-z0-9+/=]+$/.test(encoded);
}
