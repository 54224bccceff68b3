import type { IncomingHttpHeaders } from 'node:http';
import type { DbOrTx } from '../db/client.js';
import { badAuthenticationHeaders, sessionNotFound, unauthorized } from './errors.js';
import { findActiveSession, findServiceKeyHash, findUser, findUserForLogin } from './queries.js';
import { type Clearance, credentialsOf } from './rules.js';
import { passwordAgainstNothing, passwordMatches, serviceKeyMatches } from './secrets.js';

/**
 * Checks the X-Thentos-* headers of a request: a user by name and password, a service by id and
 * key, or a user by her active session token. Bad combinations are 400, wrong credentials 401,
 * a session token that does not count 404 "session not found".
 */
export async function authenticate(db: DbOrTx, headers: IncomingHttpHeaders, now: Date): Promise<Clearance> {
  const credentials = credentialsOf(headers);
  switch (credentials.kind) {
    case 'anonymous':
      return { kind: 'anonymous' };
    case 'bad':
      throw badAuthenticationHeaders();
    case 'user': {
      const user = await findUserForLogin(db, credentials.name);
      if (!user) {
        await passwordAgainstNothing(credentials.password);
        throw unauthorized();
      }
      if (!(await passwordMatches(credentials.password, user.passwordHash))) throw unauthorized();
      return { kind: 'user', userId: user.id, isAdmin: user.isAdmin };
    }
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
