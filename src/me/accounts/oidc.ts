import { and, eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import type { OidcProviderConfig } from '../../config.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { socialAccounts, users } from '../../db/schema/index.js';
import type { Lang } from '../../i18n/index.js';
import { USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../../core/users/rules.js';
import { deleteAccount } from '../../core/users/deletion.js';
import { type Account, accountColumns, usernameTaken } from '../../core/users/services.js';

const discovered = new Map<string, Promise<client.Configuration>>();

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** The provider's discovered configuration, fetched once (and again after a failure). */
function providerConfiguration(provider: OidcProviderConfig): Promise<client.Configuration> {
  const key = `${provider.issuer}|${provider.clientId}`;
  let config = discovered.get(key);
  if (!config) {
    const issuer = new URL(provider.issuer);
    // Plain http only for a provider on this machine (tests, development).
    const options = issuer.protocol === 'http:' && isLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : undefined;
    config = client.discovery(issuer, provider.clientId, provider.clientSecret || undefined, undefined, options);
    config.catch(() => discovered.delete(key));
    discovered.set(key, config);
  }
  return config;
}

/** What the browser must bring back to the callback: kept in a signed, short-lived cookie. */
export interface OidcChecks {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  next: string;
}

export async function authorizationUrl(provider: OidcProviderConfig, redirectUri: string, next: string): Promise<{ url: URL; checks: OidcChecks }> {
  const config = await providerConfiguration(provider);
  const verifier = client.randomPKCECodeVerifier();
  const checks: OidcChecks = { provider: provider.id, state: client.randomState(), nonce: client.randomNonce(), verifier, next };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: checks.state,
    nonce: checks.nonce,
  });
  return { url, checks };
}

interface OidcIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  preferredUsername: string | null;
}

/** Trades the callback's code for tokens and checks state, nonce and PKCE; returns who signed in. */
export async function identityFromCallback(provider: OidcProviderConfig, callbackUrl: URL, checks: OidcChecks): Promise<OidcIdentity> {
  const config = await providerConfiguration(provider);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.verifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token');
  const str = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return {
    subject: claims.sub,
    email: str(claims.email),
    emailVerified: claims.email_verified === true,
    preferredUsername: str(claims.preferred_username) ?? str(claims.nickname) ?? str(claims.name),
  };
}

/** A free username from the provider's suggestion: allowed characters only, then a number if taken or short. */
async function freeUsername(tx: DbOrTx, wish: string): Promise<string> {
  const cleaned = wish.replace(/[^\p{L}\p{N}_ .@+-]/gu, '').replace(/^[^\p{L}\p{N}_]+/u, '').slice(0, 50) || 'user';
  const base = USERNAME_PATTERN.test(cleaned) ? cleaned : 'user';
  // A suggestion shorter than the minimum gets a number that makes it long enough: "bob" → "bob01".
  const short = Math.max(0, USERNAME_MIN_LENGTH - [...base].length);
  for (let n = 0; n < 50; n++) {
    const candidate = short ? `${base}${String(n + 1).padStart(short, '0')}` : n ? `${base}${n + 1}` : base;
    if (!(await usernameTaken(tx, candidate))) return candidate;
  }
  return `${base}${Date.now()}`;
}

export class OidcNoEmail extends Error {}

/** Who signed in through a provider, and the media files of a dropped unconfirmed claim (removed after commit). */
interface IdentityAccount {
  account: Account;
  droppedFiles: string[];
}

/**
 * The account for a provider identity: the linked one; else the account with the same e-mail when
 * the provider vouches for the address and the account confirmed it (it gets linked); else a new
 * account without a password.
 *
 * An account that never confirmed the address is never merged (pre-hijacking, issue 21 finding 1):
 * anyone can sign up with someone else's address and a password of their own. The provider proves
 * the address, so the unconfirmed claim is dropped (its password, sessions and tokens with it) and
 * the person starts with a fresh account.
 */
export async function accountForIdentity(tx: Tx, providerId: string, identity: OidcIdentity, lang: Lang): Promise<IdentityAccount> {
  const [linked] = await tx
    .select(accountColumns)
    .from(socialAccounts)
    .innerJoin(users, eq(users.id, socialAccounts.userId))
    .where(and(eq(socialAccounts.provider, providerId), eq(socialAccounts.subject, identity.subject)));
  if (linked) return { account: linked, droppedFiles: [] };
  if (!identity.email) throw new OidcNoEmail();
  const [byEmail] = identity.emailVerified ? await tx.select(accountColumns).from(users).where(sql`lower(${users.email}) = ${identity.email.toLowerCase()}`) : [];
  const droppedFiles = byEmail && !byEmail.emailVerified ? await deleteAccount(tx, byEmail.id) : [];
  let account: Account | undefined = byEmail?.emailVerified ? byEmail : undefined;
  if (!account) {
    const username = await freeUsername(tx, identity.preferredUsername ?? identity.email.split('@')[0]);
    [account] = await tx
      .insert(users)
      .values({ username, email: identity.email, password: '', language: lang, emailVerified: identity.emailVerified })
      .returning(accountColumns);
  }
  await tx.insert(socialAccounts).values({ userId: account.id, provider: providerId, subject: identity.subject }).onConflictDoNothing();
  return { account, droppedFiles };
}
