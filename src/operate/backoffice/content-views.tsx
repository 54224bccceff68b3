import { formatDateTime } from '../../i18n/dates.js';
import { LANGUAGES, type Lang, t, tn } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, Notice } from '../../web/layout.js';
import type { PageLinks } from '../../http/pagination.js';
import { Pager } from '../../web/pager.js';
import { HTML_HELP, TextArea } from '../../web/controls.js';
import { PLATFORM_PAGES, type PlatformPageKey, platformPagePath } from '../../core/legal/texts.js';
import type { ReportedItem } from '../../features/reports/queries.js';
import { projectPath } from '../../core/urls.js';
import { Frame } from './views.js';
import type { listMails } from './services.js';

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', de: 'Deutsch' };

export function ReportsPage({ page, items, count, pager }: { page: PageContext; items: ReportedItem[]; count: number; pager: PageLinks }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Reported content')} current="reports">
      <p>{tn(lang, '%(count)s reported item', '%(count)s reported items', count)}</p>
      <ul class="report-list">
        {items.map((item) => (
          <li>
            <h2>
              {item.label ? item.label[lang].charAt(0).toUpperCase() + item.label[lang].slice(1) : t(lang, 'Comment')}:{' '}
              {item.path ? <a href={item.path}>{item.text || t(lang, '(no text)')}</a> : t(lang, 'This content has been deleted.')}
            </h2>
            <p>
              {item.project && item.organisation ? (
                <>
                  {t(lang, 'Project')}: <a href={projectPath(item.organisation.slug, item.project.slug)}>{item.project.name}</a> · {t(lang, 'Organisation')}:{' '}
                  <a href={`/${item.organisation.slug}/`}>{item.organisation.name}</a>
                </>
              ) : null}
              {item.moderatePath && (
                <>
                  {' '}
                  · <a href={item.moderatePath}>{t(lang, 'Moderate')}</a>
                </>
              )}
            </p>
            <p>{tn(lang, 'Reported once, last on %(date)s', 'Reported %(count)s times, last on %(date)s', item.reports, { date: formatDateTime(item.lastReported, lang, page.timeZone) })}</p>
            <ul>
              {item.reasons.map((reason) => (
                <li>
                  {reason.username}: <span class="pre-line">{reason.description}</span>
                  {reason.handled && <> <span class="badge">{t(lang, 'handled')}</span></>}
                </li>
              ))}
            </ul>
            <form method="post" action="/backoffice/reports/" class="inline-form">
              <CsrfField page={page} />
              <input type="hidden" name="kind" value={item.kind} />
              <input type="hidden" name="id" value={String(item.id)} />
              <button type="submit">{t(lang, 'Mark reports as handled')}</button>
            </form>
          </li>
        ))}
      </ul>
      <Pager lang={lang} pager={pager} />
    </Frame>
  );
}

type Mail = Awaited<ReturnType<typeof listMails>>['rows'][number];

/** A mail's plain text with its web addresses as links (confirmation and invitation links are opened from here in development). */
function LinkedText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(https?:\/\/[^\s<>"]+)/).map((piece, i) =>
        i % 2 === 1 ? (
          <a href={piece} rel="noopener noreferrer">
            {piece}
          </a>
        ) : (
          piece
        ),
      )}
    </>
  );
}

export function MailsPage(props: { page: PageContext; mails: Mail[]; count: number; delivery: 'smtp' | 'files' | 'outbox'; mailDir: string; pager: PageLinks }) {
  const { page, mails } = props;
  const { lang } = page;
  const how = {
    smtp: t(lang, 'E-mails are sent by SMTP (SMTP_URL).'),
    files: t(lang, 'Development: e-mails are not sent but printed on the console and written to %(dir)s.', { dir: props.mailDir }),
    outbox: t(lang, 'No SMTP_URL is set: e-mails are only recorded here.'),
  }[props.delivery];
  const status = (m: Mail) => (m.sentAt ? t(lang, 'sent') : m.error ? `${t(lang, 'failed')} (${m.attempts}): ${m.error}` : t(lang, 'queued'));
  return (
    <Frame page={page} title={t(lang, 'E-mails')} current="mails">
      <p>
        {how} {tn(lang, '%(count)s e-mail', '%(count)s e-mails', props.count)}
      </p>
      <ul class="mail-list">
        {mails.map((m) => (
          <li>
            <details>
              <summary>
                #{m.id} {formatDateTime(m.created, lang, page.timeZone)} — {m.recipient} — {m.subject} [{m.kind}] — {status(m)}
              </summary>
              <pre class="mail-body">
                <LinkedText text={m.body} />
              </pre>
            </details>
          </li>
        ))}
      </ul>
      <Pager lang={lang} pager={props.pager} />
    </Frame>
  );
}

export function PlatformPagesPage({ page, keys, saved }: { page: PageContext; keys: PlatformPageKey[]; saved: boolean }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Legal pages')} current="pages" notice={saved ? 'Your changes have been saved.' : null}>
      <p>{t(lang, 'These pages are linked in the footer of every page and from the registration form.')}</p>
      <ul>
        {keys.map((key) => (
          <li>
            <a href={`/backoffice/pages/${key}/`}>{t(lang, PLATFORM_PAGES[key])}</a> (<a href={platformPagePath(key)}>{platformPagePath(key)}</a>)
          </li>
        ))}
      </ul>
    </Frame>
  );
}

/** `next`: where saving leads back to (the project dashboard whose publication named this page), '' for the list of legal pages. */
export function PlatformPageForm({ page, pageKey, values, errors, next }: { page: PageContext; pageKey: PlatformPageKey; values: Record<Lang, string>; errors: Record<string, string[]>; next: string }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, PLATFORM_PAGES[pageKey])} current="pages">
      <p>{t(lang, 'One language is enough: the text is shown as written, whatever language the reader chose.')}</p>
      {next && <p>{t(lang, 'Saving leads you back to the project you were publishing.')}</p>}
      <form method="post" action={`/backoffice/pages/${pageKey}/`} noValidate>
        <CsrfField page={page} />
        {next && <input type="hidden" name="next" value={next} />}
        {Object.keys(errors).length > 0 && <Notice>{t(lang, 'Please correct the errors below.')}</Notice>}
        {LANGUAGES.map((l) => (
          <TextArea name={`body_${l}`} label={`${t(lang, 'Text')} (${LANGUAGE_NAMES[l]})`} value={values[l]} rows={14} errors={errors[`body_${l}`]} help={t(lang, HTML_HELP)} />
        ))}
        <button type="submit">{t(lang, 'Save')}</button>
      </form>
    </Frame>
  );
}
