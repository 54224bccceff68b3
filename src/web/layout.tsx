import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { staticUrl } from './static-files.js';
import { canUseBackoffice, GUEST_CONVERT_PATH, returnsAfterLogin } from '../core/users/rules.js';
import { CONTACT_PATH, contentPagePath } from '../core/legal/texts.js';
import type { PlatformSettings, SiteLink } from '../core/legal/content.js';
import { RichText } from './rich-text.js';
import { ORGANISATION_TEXTS, type OrganisationTextKey, organisationTextPath, PLATFORM_PAGE_KEYS, PLATFORM_PAGES, platformPagePath } from '../core/legal/texts.js';
import { NOTIFICATIONS_PATH, NOTIFICATIONS_STREAM, projectListPath } from './paths.js';
import { BELL_MAX, type Bell } from '../http/auth.js';
import { absoluteUrl } from '../http/urls.js';
import { type Lang, LANGUAGES, t } from '../i18n/index.js';
import type { PageContext } from './context.js';
import { loginRedirectUrl, signupRedirectUrl } from './render.js';

const LANGUAGE_NAMES = { en: 'English', de: 'Deutsch' } as const;

export function CsrfField({ page }: { page: PageContext }) {
  return <input type="hidden" name="csrfmiddlewaretoken" value={page.csrf} />;
}

function LanguageSwitcher({ page }: { page: PageContext }) {
  return (
    <form method="post" action="/i18n/setlang/" class="language-switcher">
      <CsrfField page={page} />
      <input type="hidden" name="next" value={page.path} />
      <label for="language-select">{t(page.lang, 'Language')}</label>
      <select id="language-select" name="language">
        {LANGUAGES.map((code) => (
          <option value={code} lang={code} selected={code === page.lang}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
      <button type="submit">{t(page.lang, 'Change')}</button>
    </form>
  );
}

/** The count as the badge shows it: up to BELL_MAX - 1, then "99+". */
export const bellCount = (unread: number) => (unread >= BELL_MAX ? `${BELL_MAX - 1}+` : String(unread));

/**
 * The bell (issue 34, item 3): the notification centre with the unread count, on every page of a
 * signed-in user. /static/bell.js keeps the count live over the user's stream, which starts where
 * the count was read (data-live-last); without JavaScript a reload shows it. No unread ones
 * (`data-unread="0"`): no badge. A kept page gets the viewer's bell put in at sending
 * (web/page-keeping.ts).
 */
function NotificationBell({ lang, bell }: { lang: Lang; bell: Bell }) {
  return (
    <a href={NOTIFICATIONS_PATH} class="bell" data-bell-stream={NOTIFICATIONS_STREAM} data-live-last={bell.livePosition} data-unread={String(bell.unread)}>
      <svg class="bell-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
        <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
      </svg>
      {t(lang, 'Notifications')}{' '}
      <span class="badge" data-bell-badge>
        <span data-bell-count>{bellCount(bell.unread)}</span>
        <span class="visually-hidden"> {t(lang, 'unread')}</span>
      </span>
    </a>
  );
}

/** A content page's title in the reader's language, else in the other. */
const linkTitle = (link: SiteLink, lang: Lang) => link.title[lang] || LANGUAGES.map((l) => link.title[l]).find(Boolean) || link.slug;

/** The content pages the operator put in the menu (a+ CMS "important pages"). */
function MenuLinks({ page }: { page: PageContext }) {
  return (
    <>
      {(page.links ?? [])
        .filter((l) => l.placement === 'menu')
        .map((l) => (
          <li>
            <a href={contentPagePath(l.slug)}>{linkTitle(l, page.lang)}</a>
          </li>
        ))}
    </>
  );
}

function UserNav({ page }: { page: PageContext }) {
  const { lang, user } = page;
  if (!user) {
    const back = returnsAfterLogin(page.path);
    return (
      <ul class="nav">
        <MenuLinks page={page} />
        <li>
          <a href={back ? loginRedirectUrl(page.path) : '/accounts/login/'}>{t(lang, 'Login')}</a>
        </li>
        <li>
          <a href={back ? signupRedirectUrl(page.path) : '/accounts/signup/'}>{t(lang, 'Register')}</a>
        </li>
      </ul>
    );
  }
  return (
    <ul class="nav">
      <MenuLinks page={page} />
      {user.bell && (
        <li>
          <NotificationBell lang={lang} bell={user.bell} />
        </li>
      )}
      {user.isGuest && (
        <li>
          <a href={GUEST_CONVERT_PATH}>{t(lang, 'Guest: create an account')}</a>
        </li>
      )}
      <li>
        <a href="/userdashboard/overview/">{t(lang, 'Overview')}</a>
      </li>
      <li>
        <a href="/account/">{t(lang, 'Account Settings')}</a>
      </li>
      {user.staff?.initiatorOf && (
        <li>
          <a href={projectListPath(user.staff.initiatorOf)}>{t(lang, 'Dashboard')}</a>
        </li>
      )}
      {(user.staff?.moderates || user.staff?.initiatorOf) && (
        <li>
          <a href="/userdashboard/moderation/">{t(lang, 'Moderation')}</a>
        </li>
      )}
      {canUseBackoffice(user) && (
        <li>
          <a href="/backoffice/">{t(lang, 'Back-office')}</a>
        </li>
      )}
      <li>
        <form method="post" action="/accounts/logout/" class="inline-form">
          <CsrfField page={page} />
          <button type="submit" class="link-button">
            {t(lang, 'Logout')}
          </button>
        </form>
      </li>
    </ul>
  );
}

interface LayoutProps {
  page: PageContext;
  title: string;
  children: ComponentChildren;
  /** Page scripts that improve the page (it works without them). */
  scripts?: string[];
  /** On an organisation's pages: its written legal texts, linked in the footer (§B3.2). */
  organisation?: FooterOrganisation;
}

export interface FooterOrganisation {
  slug: string;
  name: string;
  legal: OrganisationTextKey[];
}

/** The footer: the organisation's legal texts (on its pages) and the platform's legal pages. */
function Footer({ page, organisation }: { page: PageContext; organisation?: FooterOrganisation }) {
  const { lang } = page;
  // One "Imprint" link per footer: beside the organisation's own texts the platform's say whose they are.
  const ownTitles = new Set<string>((organisation?.legal ?? []).map((key) => ORGANISATION_TEXTS[key].title));
  return (
    <footer class="site-footer">
      {organisation && organisation.legal.length > 0 && (
        <nav aria-label={organisation.name}>
          <ul class="footer-links">
            <li>{organisation.name}:</li>
            {organisation.legal.map((key) => (
              <li>
                <a href={organisationTextPath(organisation.slug, key)}>{t(lang, ORGANISATION_TEXTS[key].title)}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <nav aria-label={t(lang, 'Legal information')}>
        <ul class="footer-links">
          <li>{page.platform?.name || 'Allmende'}</li>
          {PLATFORM_PAGE_KEYS.map((key) => (
            <li>
              <a href={platformPagePath(key)}>{ownTitles.has(PLATFORM_PAGES[key]) ? t(lang, '%(page)s of Allmende', { page: t(lang, PLATFORM_PAGES[key]) }) : t(lang, PLATFORM_PAGES[key])}</a>
            </li>
          ))}
          {(page.links ?? [])
            .filter((l) => l.placement === 'footer')
            .map((l) => (
              <li>
                <a href={contentPagePath(l.slug)}>{linkTitle(l, lang)}</a>
              </li>
            ))}
          <li>
            <a href={CONTACT_PATH}>{t(lang, 'Contact')}</a>
          </li>
          <li>
            <a href="/api/docs/">{t(lang, 'API documentation')}</a>
          </li>
        </ul>
      </nav>
      {page.platform && <PlatformOperator page={page} platform={page.platform} />}
    </footer>
  );
}

const SOCIAL_NAMES = { facebook: 'Facebook', twitter: 'X (Twitter)', github: 'GitHub' } as const;

/** The platform's operator in the footer (a+ OrganisationSettings, SocialMedia): address, contacts and social links, where written. */
function PlatformOperator({ page, platform }: { page: PageContext; platform: PlatformSettings }) {
  const social = (Object.keys(SOCIAL_NAMES) as (keyof typeof SOCIAL_NAMES)[]).filter((key) => platform[key]);
  if (!platform.address && !platform.contacts && !social.length) return null;
  return (
    <div class="footer-operator">
      {platform.address && (
        <address class="footer-address">
          <RichText html={platform.address} />
        </address>
      )}
      {platform.contacts && (
        <div class="footer-contacts">
          <RichText html={platform.contacts} />
        </div>
      )}
      {social.length > 0 && (
        <nav aria-label={t(page.lang, 'Social media')}>
          <ul class="footer-links">
            {social.map((key) => (
              <li>
                <a href={platform[key]} rel="me noopener">
                  {SOCIAL_NAMES[key]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}

/** What a link to the platform shows where it is shared: the operator's description and picture (an absolute URL, as Open Graph asks), where set. */
function ShareTags({ page }: { page: PageContext }) {
  const platform = page.platform;
  if (!platform) return null;
  const description = platform.shareDescription[page.lang] || platform.shareDescription.en || platform.shareDescription.de;
  return (
    <>
      {description && <meta property="og:description" content={description} />}
      {platform.shareImage && <meta property="og:image" content={absoluteUrl(page.origin, `/media/${platform.shareImage}`)} />}
    </>
  );
}

/** The page frame: skip link, header with navigation and language switcher, main, footer. */
export function Layout({ page, title, children, scripts = [], organisation }: LayoutProps) {
  const { lang } = page;
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} — Allmende`}</title>
        <ShareTags page={page} />
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={staticUrl('/static/site.css')} />
        <script src={staticUrl('/static/timeago.js')} defer />
        {page.user?.bell && <script src={staticUrl('/static/bell.js')} defer />}
        {scripts.map((src) => (
          <script src={staticUrl(src)} defer />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#content">
          {t(lang, 'Skip to content')}
        </a>
        <header class="site-header">
          <a class="brand" href="/">
            Allmende
          </a>
          <nav aria-label={t(lang, 'Main')}>
            <UserNav page={page} />
          </nav>
          <LanguageSwitcher page={page} />
        </header>
        <main id="content" tabIndex={-1}>
          {page.message && (
            <div class="alert alert-success" role="status">
              {t(lang, page.message)}
            </div>
          )}
          {children}
        </main>
        <Footer page={page} organisation={organisation} />
      </body>
    </html>
  );
}

/** A form field: label, input and its errors, linked for screen readers. */
export function Field(props: {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  errors?: string[];
  required?: boolean;
  autocomplete?: string;
  help?: string;
  maxLength?: number;
}) {
  const id = `id_${props.name}`;
  const errors = props.errors ?? [];
  const described = [props.help ? `${id}_help` : '', errors.length ? `${id}_errors` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${errors.length ? ' has-error' : ''}`}>
      <label for={id}>{props.label}</label>
      <input
        {...({
          id,
          name: props.name,
          type: props.type ?? 'text',
          value: props.type === 'password' ? undefined : props.value,
          required: props.required,
          autocomplete: props.autocomplete,
          maxLength: props.maxLength,
          'aria-invalid': errors.length ? 'true' : undefined,
          'aria-describedby': described || undefined,
        } as InputHTMLAttributes<HTMLInputElement>)}
      />
      {props.help && (
        <p class="help" id={`${id}_help`}>
          {props.help}
        </p>
      )}
      <FieldErrors id={`${id}_errors`} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul class="errorlist" id={id}>
      {errors.map((error) => (
        <li>{error}</li>
      ))}
    </ul>
  );
}

/** Errors that belong to no single field, announced to screen readers. */
export function FormErrors({ errors }: { errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div class="alert alert-error" role="alert">
      <FieldErrors errors={errors} />
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="alert alert-info" role="status">
      {children}
    </div>
  );
}

/** A page with a heading, a message and an optional link onwards. */
export function MessagePage({ page, title, message, note, link }: { page: PageContext; title: string; message: string; note?: string; link?: { href: string; text: string } }) {
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <Notice>
          <p>{message}</p>
        </Notice>
        {note && <p class="help">{note}</p>}
        {link && (
          <p>
            <a href={link.href}>{link.text}</a>
          </p>
        )}
      </div>
    </Layout>
  );
}
