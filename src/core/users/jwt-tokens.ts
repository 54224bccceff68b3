import { eq, lt } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { jwtBlacklist } from '../../db/schema/index.js';
import { issuedInTime, loadActiveUser } from '../../http/auth.js';
import { authenticationFailed } from '../../http/errors.js';
import { type JwtClaims, JwtInvalid, type JwtType, signJwt, verifyJwt } from '../../http/jwt.js';

export interface TokenPair {
  refresh: string;
  access: string;
}

type TokenConfig = Pick<Config, 'secretKey' | 'accessTokenLifetimeSeconds' | 'refreshTokenLifetimeSeconds'>;

export const BEARER_CHALLENGE = 'Bearer realm="api"';

const tokenNotValid = (detail: string) => authenticationFailed(detail, { code: 'token_not_valid' }, BEARER_CHALLENGE);
const noActiveAccount = () => authenticationFailed('No active account found for the given token.', { code: 'no_active_account' }, BEARER_CHALLENGE);

/**
 * `iat` has whole seconds while a password change (credentialsValidAfter) has milliseconds: a
 * token issued in the same second after the change is dated to the next second, so that it counts.
 */
function issueInstant(user: { credentialsValidAfter: Date | null }): number {
  const after = user.credentialsValidAfter?.getTime() ?? 0;
  return Math.max(Date.now(), Math.ceil(after / 1000) * 1000);
}

/** A new access and refresh token for a user (simplejwt's token pair). */
export async function issueTokenPair(config: TokenConfig, user: { id: number; credentialsValidAfter: Date | null }): Promise<TokenPair> {
  const now = issueInstant(user);
  return {
    refresh: await signJwt(config.secretKey, 'refresh', user.id, config.refreshTokenLifetimeSeconds, now),
    access: await signJwt(config.secretKey, 'access', user.id, config.accessTokenLifetimeSeconds, now),
  };
}

async function isBlacklisted(db: Db, jti: string): Promise<boolean> {
  const [row] = await db.select({ jti: jwtBlacklist.jti }).from(jwtBlacklist).where(eq(jwtBlacklist.jti, jti));
  return Boolean(row);
}

/** Blacklists a token; false when it already was (another request rotated it first). */
async function blacklist(db: Db, claims: JwtClaims): Promise<boolean> {
  const inserted = await db
    .insert(jwtBlacklist)
    .values({ jti: claims.jti, userId: claims.user_id, expiresAt: new Date(claims.exp * 1000) })
    .onConflictDoNothing()
    .returning({ jti: jwtBlacklist.jti });
  return inserted.length > 0;
}

/** Expired tokens fail on their own: their blacklist entries can go (an index on expires_at keeps this cheap). */
async function purgeExpiredBlacklist(db: Db): Promise<void> {
  await db.delete(jwtBlacklist).where(lt(jwtBlacklist.expiresAt, new Date()));
}

/**
 * Checks a token as simplejwt does (signature, expiry, type, blacklist) and, beyond it, that its
 * user is still active and has not changed password or been deactivated since it was issued.
 */
async function checkToken(db: Db, secret: string, token: string, type: JwtType | 'any') {
  let claims: JwtClaims;
  try {
    claims = await verifyJwt(secret, token, type);
  } catch (error) {
    throw tokenNotValid(error instanceof JwtInvalid ? error.message : 'Token is invalid');
  }
  if (await isBlacklisted(db, claims.jti)) throw tokenNotValid('Token is blacklisted');
  const user = await loadActiveUser(db, claims.user_id);
  if (!user) throw noActiveAccount();
  if (!issuedInTime(user, new Date(claims.iat * 1000))) throw tokenNotValid('Token is invalid');
  return { claims, user };
}

/** Rotates a refresh token: the old one is blacklisted, a new pair is issued. */
export async function rotateRefreshToken(db: Db, config: TokenConfig, token: string): Promise<TokenPair> {
  const { claims, user } = await checkToken(db, config.secretKey, token, 'refresh');
  if (!(await blacklist(db, claims))) throw tokenNotValid('Token is blacklisted');
  await purgeExpiredBlacklist(db);
  return issueTokenPair(config, user);
}

/** /api/token/verify/: any valid token of either type passes. */
export async function verifyToken(db: Db, config: TokenConfig, token: string): Promise<void> {
  await checkToken(db, config.secretKey, token, 'any');
}
