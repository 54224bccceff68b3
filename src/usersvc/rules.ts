import type { IncomingHttpHeaders } from 'node:http';

/** The most a user/session-service account's fields may hold (docs/security.md). */
export const USERSVC_LIMITS = { name: 200, email: 254, password: 1000 };

/** Who is calling: the result of the X-Thentos-* headers. */
export type Clearance =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: number; isAdmin: boolean }
  | { kind: 'service'; serviceId: string };

/** The credentials a request carries, before they are checked. */
export type Credentials =
  | { kind: 'anonymous' }
  | { kind: 'user'; name: string; password: string }
  | { kind: 'service'; serviceId: string; key: string }
  | { kind: 'session'; token: string }
  | { kind: 'bad' };

const AUTH_HEADERS = ['x-thentos-user', 'x-thentos-service', 'x-thentos-session', 'x-thentos-password'] as const;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Exactly user+password, service+password, session alone or nothing; every other combination is bad. */
export function credentialsOf(headers: IncomingHttpHeaders): Credentials {
  const present = AUTH_HEADERS.filter((name) => header(headers, name) !== undefined).join(' ');
  const user = header(headers, 'x-thentos-user') ?? '';
  const service = header(headers, 'x-thentos-service') ?? '';
  const session = header(headers, 'x-thentos-session') ?? '';
  const password = header(headers, 'x-thentos-password') ?? '';
  switch (present) {
    case '':
      return { kind: 'anonymous' };
    case 'x-thentos-user x-thentos-password':
      return { kind: 'user', name: user, password };
    case 'x-thentos-service x-thentos-password':
      return { kind: 'service', serviceId: service, key: password };
    case 'x-thentos-session':
      return { kind: 'session', token: session };
    default:
      return { kind: 'bad' };
  }
}

export const isAdmin = (who: Clearance): boolean => who.kind === 'user' && who.isAdmin;

export const isThatUser = (who: Clearance, userId: number): boolean => who.kind === 'user' && who.userId === userId;

export const isAdminOrThatUser = (who: Clearance, userId: number): boolean => isAdmin(who) || isThatUser(who, userId);

export const isAdminOrThatService = (who: Clearance, serviceId: string): boolean =>
  isAdmin(who) || (who.kind === 'service' && who.serviceId === serviceId);

/** A user id from the path: decimal digits only; values beyond int32 name no user (null means "not a user id"). */
export function parseUserId(raw: string): number | null {
  return /^\d{1,20}$/.test(raw) ? Number(raw) : null;
}

export const isStoredUserId = (id: number): boolean => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The stored form of a user name: without surrounding white space, in Unicode NFC. Names are
 * unique regardless of case ("Kurt" and " kurt " are one user), and log in in any case.
 */
export function normaliseUserName(name: string): string {
  return name.normalize('NFC').trim();
}

/** A reason why a user name is not acceptable, or null. */
export function userNameProblem(name: string): string | null {
  if (name.trim() === '') return 'user name must not be empty';
  if (CONTROL.test(name)) return 'user name must not contain control characters';
  return null;
}

/** A reason why an e-mail address is not acceptable, or null. */
export function emailProblem(email: string): string | null {
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || CONTROL.test(email)) return 'email is not an e-mail address';
  return null;
}
