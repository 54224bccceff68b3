import { createHmac, timingSafeEqual } from 'node:crypto';

/** Crockford's base32: no I, L, O or U to misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;

/**
 * The setup code of an empty install (issue 37, item 1). It is derived from the secret key, so
 * every worker knows the same code without sharing state and only the start log shows it; it opens
 * the setup page only while no superuser exists, so it serves once. 12 characters of base32 are
 * 60 bits: not to be guessed over the network.
 */
export function setupCode(secretKey: string): string {
  const digest = createHmac('sha256', secretKey).update('allmende first-run setup').digest();
  const characters = Array.from(digest.subarray(0, CODE_LENGTH), (byte) => ALPHABET[byte % ALPHABET.length]);
  return [0, 4, 8].map((start) => characters.slice(start, start + 4).join('')).join('-');
}

const normalised = (code: string) => code.toUpperCase().replace(/[^0-9A-Z]/g, '');

/** Whether the typed code is the setup code (spaces, dashes and case do not matter); compared in constant time. */
export function setupCodeMatches(typed: string, secretKey: string): boolean {
  const given = Buffer.from(normalised(typed));
  const expected = Buffer.from(normalised(setupCode(secretKey)));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The lines `npm start` prints while the install has no operator. */
export const setupAnnouncement = (baseUrl: string, secretKey: string) =>
  [
    'No operator account exists yet. To set up this platform, open',
    `  ${baseUrl}/setup/`,
    `and enter the setup code ${setupCode(secretKey)}`,
  ].join('\n');
