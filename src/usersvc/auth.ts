import type { IncomingHttpHeaders } from 'node:http';
import type { DbOrTx } from '../db/client.js';
import { clearLoginFailures, loginThrottleWait, recordLoginFailure, type ThrottleContext } from '../http/throttle.js';
import { badAuthenticationHeaders, sessionNotFound, tooManyFailedLogins, unauthorized } from './errors.js';
import { findActiveSession, findServiceKeyHash, findUser, findUserForLogin } from './queries.js';
import { type Clearance, credentialsOf } from './rules.js';
import { passwordAgainstNothing, passwordMatches, serviceKeyMatches } from './secrets.js';

/**
 * Checks the X-Thentos-* headers of a request: a user by name and password, a service by id and
 * key, or a user by her active session token. Bad combinations are 400, wrong credentials 401,
 * a session token that does not count 404 "session not found".
 */
interface LoginThrottle {
  ctx: ThrottleContext;
  ip: string;
}

/**
 * Name and password are checked under the platform's login throttle (per IP and per account,
 * LOGIN_FAILURE_LIMIT per LOGIN_FAILURE_WINDOW): over the limit, 429 with Retry-After.
 */
async function userByPassword(db: DbOrTx, name: string, password: string, throttle: LoginThrottle): Promise<Clearance> {
  const account = `usersvc:${name}`;
  const wait = await loginThrottleWait(throttle.ctx, throttle.ip, account);
  if (wait > 0) throw tooManyFailedLogins(wait);
  const user = await findUserForLogin(db, name);
  const ok = user ? await passwordMatches(password, user.passwordHash) : (await passwordAgainstNothing(password), false);
  if (!user || !ok) {
    await recordLoginFailure(throttle.ctx, throttle.ip, account);
    throw unauthorized();
  }
  await clearLoginFailures(throttle.ctx, account);
  return { kind: 'user', userId: user.id, isAdmin: user.isAdmin };
}

export async function authenticate(db: DbOrTx, headers: IncomingHttpHeaders, now: Date, throttle: LoginThrottle): Promise<Clearance> {
  const credentials = credentialsOf(headers);
  switch (credentials.kind) {
    case 'anonymous':
      return { kind: 'anonymous' };
    case 'bad':
      throw badAuthenticationHeaders();
    case 'user':
      return userByPassword(db, credentials.name, credentials.password, throttle);
    case 'service': {
      const keyHash = await findServiceKeyHash(db, credentials.serviceId);
      if (!keyHash || !serviceKeyMatches(credentials.key, keyHash)) throw unauthorized();
      return { kind: 'service', serviceId: credentials.serviceId };
    }
    case 'session': {
      const session = await findActiveSession(db, credentials.token, now);
      const user = session ? await findUser(db, session.userId) : null;
      if (!user) throw sessionNotFound();
      return { kind: 'user', userId: user.id, isAdmin: user.isAdmin };
    }
  }
}
