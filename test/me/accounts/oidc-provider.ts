import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { Browser } from './client.js';

export interface TestIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
}

interface Grant {
  identity: TestIdentity;
  nonce: string;
  challenge: string;
  redirectUri: string;
}

/**
 * A tiny OpenID Connect provider on loopback for tests: discovery, JWKS, an authorize endpoint that
 * signs in `identity` at once, and a token endpoint that checks the code, PKCE and client secret and
 * returns an RS256 ID token.
 */
export async function startTestProvider(clientId: string, clientSecret: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  const state = { identity: { sub: 'subject-1' } as TestIdentity, issuer: '' };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', state.issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: state.issuer,
        authorization_endpoint: `${state.issuer}/authorize`,
        token_endpoint: `${state.issuer}/token`,
        jwks_uri: `${state.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (url.searchParams.get('client_id') !== clientId || url.searchParams.get('code_challenge_method') !== 'S256') return json(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('hex');
      grants.set(code, { identity: state.identity, nonce: url.searchParams.get('nonce') ?? '', challenge: url.searchParams.get('code_challenge') ?? '', redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', state.issuer);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        void (async () => {
          const form = new URLSearchParams(body);
          const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
          const [id, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : [form.get('client_id'), form.get('client_secret')];
          const grant = grants.get(form.get('code') ?? '');
          grants.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (id !== clientId || secret !== clientSecret || !grant || grant.challenge !== challenge || form.get('redirect_uri') !== grant.redirectUri) {
            return json(400, { error: 'invalid_grant' });
          }
          const idToken = await new SignJWT({ ...grant.identity, nonce: grant.nonce })
            .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
            .setIssuer(state.issuer)
            .setAudience(clientId)
            .setSubject(grant.identity.sub)
            .setIssuedAt()
            .setExpirationTime('5m')
            .sign(privateKey);
          json(200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken });
        })();
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer: state.issuer,
    /** Who the next authorization signs in. */
    signIn(identity: TestIdentity) {
      state.identity = identity;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs the whole redirect dance of a social login: our login URL → provider → our callback. */
export async function socialLogin(provider: { issuer: string; signIn(identity: TestIdentity): void }, browser: Browser, identity: TestIdentity) {
  provider.signIn(identity);
  const start = await browser.get('/accounts/oidc/testid/login/?next=/account/');
  assert.equal(start.status, 302);
  assert.ok(start.location?.startsWith(`${provider.issuer}/authorize?`));
  const authorize = await fetch(String(start.location), { redirect: 'manual' });
  const callback = new URL(String(authorize.headers.get('location')));
  return browser.get(`${callback.pathname}${callback.search}`);
}
