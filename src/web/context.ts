import { loadSiteFrame, type PlatformSettings, type SiteLink } from '../core/legal/content.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AuthUser, currentUser } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { requestLanguage } from '../http/i18n.js';
import { ensureCsrfToken } from '../http/session.js';
import type { Lang } from '../i18n/index.js';
import { takeMessage } from './flash.js';
import { loginRedirectUrl } from './render.js';

/** What every page needs: who is looking, in which language and time zone, and the form token. */
export interface PageContext {
  user: AuthUser | null;
  lang: Lang;
  timeZone: string;
  csrf: string;
  /** The path and query of the page, for the language switcher and login links. */
  path: string;
  /** The platform's public origin (BASE_URL), for the absolute links a page gives away (the sharing tags). */
  origin: string;
  /** OpenID Connect providers to offer on the login and signup pages. */
  socialProviders?: { id: string; name: string }[];
  /** A success message left by the previous request (POST-redirect-GET), as a catalogue key. */
  message?: string | null;
  /** The content pages linked in the footer and the menu (web/site-links.ts). */
  links: SiteLink[];
  /** The platform's operator, address, contacts and social links (the footer; web/site-links.ts). */
  platform: PlatformSettings;
  /** Set while a page is rendered for keeping with its figures filled in at sending (web/page-keeping.ts `figureText`). */
  keptCounts?: KeptCounts;
  /** Set while a page is rendered for keeping with its viewer's values filled in at sending (web/page-keeping.ts `viewerValue`). */
  keptViewer?: KeptViewer;
}

/** What a page rendered for keeping does with the values that are its viewer's or change without its version (web/page-keeping.ts). */
export interface KeptViewer {
  /** The marker that stands for a value (`likes/12`) in the kept page; `value` the one this rendering read. */
  marker(ref: string, value: string): string;
}

/** What a page rendered for keeping does with the counts it shows (web/page-keeping.ts). */
export interface KeptCounts {
  /** The marker that stands for a figure (`c/idea:12`, core/modules/figures.ts) in the kept page; `count` the figure this rendering read, `wording` the name of its words (web/page-keeping.ts `figureText`). */
  marker(ref: string, count: number, wording?: string): string;
  /** The page shows more of the comments and ratings than their figures (an order by them, the Result tab's statistics): keep it per comment and rating too. */
  dependOnComments(): void;
}

/** A page context before its frame (the footer's links and the platform settings): a kept page's (web/page-keeping.ts). */
export type PageBasics = Omit<PageContext, 'links' | 'platform'>;

/** The signed-in user of a page request; a broken Authorization header just means anonymous here. */
async function pageUser(request: FastifyRequest): Promise<AuthUser | null> {
  try {
    return await currentUser(request);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 401) return null;
    throw error;
  }
}

/**
 * The context of a page that is not kept, with its frame read fresh (one statement): every
 * instance shows a change of the content pages or the platform settings at once.
 */
export async function pageContext(request: FastifyRequest, reply: FastifyReply): Promise<PageContext> {
  return framedPage(request, await pageBasics(request, reply));
}

/** A page context from its basics with the frame read now: a form post that mostly redirects reads it only when it shows a page. */
export async function framedPage<T extends PageBasics>(request: FastifyRequest, basics: T): Promise<T & Pick<PageContext, 'links' | 'platform'>> {
  return { ...basics, ...(await loadSiteFrame(request.server.ctx.db)) };
}

/** The context of a kept page: its frame comes with its version (web/page-keeping.ts `sendKeptPage`). */
export async function pageBasics(request: FastifyRequest, reply: FastifyReply): Promise<PageBasics> {
  const user = await pageUser(request);
  return {
    user,
    lang: requestLanguage(request, user),
    timeZone: request.server.ctx.config.timeZone,
    csrf: ensureCsrfToken(request, reply),
    path: request.url,
    origin: request.server.ctx.config.baseUrl,
    socialProviders: request.server.ctx.config.oidcProviders.map(({ id, name }) => ({ id, name })),
    message: takeMessage(request, reply),
  };
}

/** A page context with a signed-in user, or null after answering 302 to the login page. */
export async function userPageContext(request: FastifyRequest, reply: FastifyReply): Promise<(PageContext & { user: AuthUser }) | null> {
  const page = await pageContext(request, reply);
  if (!page.user) {
    await reply.redirect(loginRedirectUrl(request.url), 302);
    return null;
  }
  return { ...page, user: page.user };
}
