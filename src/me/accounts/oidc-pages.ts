import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { absoluteUrl } from '../../http/urls.js';
import { t } from '../../i18n/index.js';
import { pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { safeNext, sendPage } from '../../web/render.js';
import { startSession } from '../../core/users/login.js';
import { accountForIdentity, authorizationUrl, identityFromCallback, type OidcChecks, OidcNoEmail } from './oidc.js';
import { MessagePage } from '../../web/layout.js';
import { AFTER_LOGIN } from '../../core/users/rules.js';
import { isUniqueViolation } from '../../core/users/services.js';

const OIDC_COOKIE = 'oidc_login';
const ProviderParams = Type.Object({ provider: Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9_-]+$' }) });

function readChecks(raw: string | undefined, unsign: (value: string) => { valid: boolean; value: string | null }): OidcChecks | null {
  if (!raw) return null;
  const { valid, value } = unsign(raw);
  if (!valid || !value) return null;
  try {
    return JSON.parse(value) as OidcChecks;
  } catch {
    return null;
  }
}

/** Social login through the OpenID Connect providers configured in the environment (authorization code + PKCE). */
export async function oidcRoutes(app: FastifyInstance): Promise<void> {
  const { config, db } = app.ctx;
  const { media } = app.ctx;
  const providerOf = (id: string) => config.oidcProviders.find((p) => p.id === id);
  const callbackPath = (id: string) => `/accounts/oidc/${id}/login/callback/`;
  const cookieOptions = (secure: boolean) => ({ path: '/accounts/oidc/', httpOnly: true, sameSite: 'lax' as const, secure, signed: true, maxAge: 600 });

  app.get('/accounts/oidc/:provider/login/', pageRoute({ params: ProviderParams, querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) }) }), async (request, reply) => {
    const provider = providerOf((request.params as { provider: string }).provider);
    const page = await pageContext(request, reply);
    if (!provider) return sendPage(reply, MessagePage({ page, title: t(page.lang, 'Page not found'), message: t(page.lang, 'The page you were looking for does not exist.') }), 404);
    const next = safeNext((request.query as { next?: string }).next, AFTER_LOGIN);
    try {
      // Normalised as a URL, exactly as the callback's URL will be (e.g. without a default port).
      const redirectUri = new URL(absoluteUrl(config.baseUrl, callbackPath(provider.id))).href;
      const { url, checks } = await authorizationUrl(provider, redirectUri, next);
      reply.setCookie(OIDC_COOKIE, JSON.stringify(checks), cookieOptions(request.protocol === 'https'));
      return reply.redirect(url.href, 302);
    } catch (error) {
      request.log.warn({ err: error, provider: provider.id }, 'OIDC provider unavailable');
      return sendPage(reply, MessagePage({ page, title: t(page.lang, 'Login'), message: t(page.lang, 'The login provider cannot be reached. Please try again later.') }), 502);
    }
  });

  app.get('/accounts/oidc/:provider/login/callback/', pageRoute({ params: ProviderParams }), async (request, reply) => {
    const provider = providerOf((request.params as { provider: string }).provider);
    const page = await pageContext(request, reply);
    const failed = (message: string, status = 400) => sendPage(reply, MessagePage({ page, title: t(page.lang, 'Login'), message, link: { href: '/accounts/login/', text: t(page.lang, 'Login') } }), status);
    const checks = readChecks(request.cookies[OIDC_COOKIE], (value) => request.unsignCookie(value));
    reply.clearCookie(OIDC_COOKIE, { path: '/accounts/oidc/' });
    if (!provider) return failed(t(page.lang, 'The page you were looking for does not exist.'), 404);
    if (!checks || checks.provider !== provider.id) return failed(t(page.lang, 'The login could not be completed. Please try again.'));
    const callbackUrl = new URL(absoluteUrl(config.baseUrl, request.url));
    let identity;
    try {
      identity = await identityFromCallback(provider, callbackUrl, checks);
    } catch (error) {
      request.log.warn({ err: error, provider: provider.id }, 'OIDC callback refused');
      return failed(t(page.lang, 'The login could not be completed. Please try again.'));
    }
    try {
      const { account, droppedFiles } = await db.transaction(async (tx) => {
        const found = await accountForIdentity(tx, provider.id, identity, page.lang);
        if (found.account.isActive) await startSession(tx, request, reply, found.account);
        return found;
      });
      await media.remove(...droppedFiles);
      if (!account.isActive) return failed(t(page.lang, 'This account is inactive.'), 403);
    } catch (error) {
      if (error instanceof OidcNoEmail) return failed(t(page.lang, 'The login provider did not share an e-mail address.'));
      if (isUniqueViolation(error)) return failed(t(page.lang, 'An account with this e-mail address already exists. Log in with your password first.'));
      throw error;
    }
    return reply.redirect(checks.next, 302);
  });
}
