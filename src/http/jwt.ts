import { errors, jwtVerify, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';

export type JwtType = 'access' | 'refresh';

export interface JwtClaims {
  token_type: JwtType;
  user_id: number;
  jti: string;
  exp: number;
  iat: number;
}

const keyCache = new Map<string, Uint8Array>();
const keyOf = (secret: string) => {
  let key = keyCache.get(secret);
  if (!key) keyCache.set(secret, (key = new TextEncoder().encode(secret)));
  return key;
};

/** Signs a simplejwt-compatible token: HS256, claims token_type, exp, iat, jti, user_id. */
export async function signJwt(secret: string, type: JwtType, userId: number, lifetimeSeconds: number, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ token_type: type, user_id: userId, jti: randomUUID().replace(/-/g, '') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetimeSeconds)
    .sign(keyOf(secret));
}

export class JwtInvalid extends Error {}

/**
 * Verifies signature (HS256 only), expiry and type (`'any'`: either type, as /api/token/verify/
 * accepts); throws JwtInvalid with simplejwt's wording.
 */
export async function verifyJwt(secret: string, token: string, expected: JwtType | 'any'): Promise<JwtClaims> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'] }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new JwtInvalid('Token is expired');
    throw new JwtInvalid('Token is invalid');
  }
  const { token_type, user_id, jti, exp, iat } = payload;
  if (typeof token_type !== 'string' || typeof jti !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') {
    throw new JwtInvalid('Token is invalid');
  }
  if (token_type !== 'access' && token_type !== 'refresh') throw new JwtInvalid('Token has wrong type');
  if (expected !== 'any' && token_type !== expected) throw new JwtInvalid('Token has wrong type');
  if (typeof user_id !== 'number' || !Number.isSafeInteger(user_id)) throw new JwtInvalid('Token contained no recognizable user identification');
  return { token_type, user_id, jti, exp, iat };
}
