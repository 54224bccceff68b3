import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed link is for; a token for one purpose never works for another. */
type LinkPurpose = 'confirm-email' | 'reset-password' | 'unsubscribe' | 'notifications-off';

const LINK_LIFETIME_SECONDS: Record<LinkPurpose, number> = {
  'confirm-email': 3 * 24 * 3600,
  'reset-password': 24 * 3600,
  // A newsletter stays in a mailbox for years; its unsubscribe link must keep working.
  unsubscribe: 10 * 365 * 24 * 3600,
  'notifications-off': 10 * 365 * 24 * 3600,
};

interface LinkPayload {
  p: LinkPurpose;
  u: number;
  e: number;
  /** A fingerprint of the state the link may act on (the link dies when that state changes), or what it acts on (unsubscribe: the organisation). */
  s: string;
}

const mac = (secret: string, data: string) => createHmac('sha256', secret).update(`allmende.link.${data}`).digest('base64url');

/** A short fingerprint of account state (e.g. the password hash), so links expire after use. */
export const stateFingerprint = (...parts: (string | number | boolean)[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 16);

export function signLink(secret: string, purpose: LinkPurpose, userId: number, state: string, now = Date.now()): string {
  const payload: LinkPayload = { p: purpose, u: userId, e: Math.floor(now / 1000) + LINK_LIFETIME_SECONDS[purpose], s: state };
  const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${data}.${mac(secret, data)}`;
}

/** The user id and state fingerprint of a valid, unexpired link for the purpose; null otherwise. */
export function readLink(secret: string, purpose: LinkPurpose, token: string, now = Date.now()): { userId: number; state: string } | null {
  const [data, signature, ...rest] = token.split('.');
  if (!data || !signature || rest.length || token.length > 500) return null;
  const expected = Buffer.from(mac(secret, data));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: Partial<LinkPayload>;
  try {
    payload = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as Partial<LinkPayload>;
  } catch {
    return null;
  }
  if (payload.p !== purpose || !Number.isSafeInteger(payload.u) || typeof payload.e !== 'number' || typeof payload.s !== 'string') return null;
  if (payload.e * 1000 < now) return null;
  return { userId: payload.u as number, state: payload.s };
}
