import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { DataTable } from '../../web/components.js';
import { CsrfField, FormErrors, Layout, Notice } from '../../web/layout.js';
import { HTML_HELP, Input, RICH_TEXT_SCRIPTS, Select, TextArea } from '../../web/controls.js';
import { OrganisationTabs } from '../projects/views.js';
import { newsletterCreatePath } from '../../web/paths.js';
import type { listNewsletters, newsletterProjects } from './queries.js';
import { NEWSLETTER_TEXT_MAX_LENGTH, type NewsletterValues } from './rules.js';
import type { NewsletterTargetGroup } from '../../db/schema/index.js';

type Organisation = { slug: string; name: string };

/** Whom a newsletter was written for (newsletters from adhocracy+ may name another group than a project's followers). */
const TARGET_GROUP_LABELS: Record<NewsletterTargetGroup, string> = {
  project: "The project's followers",
  organisation: "The organisation's followers",
  initiators: "The organisation's initiators",
  platform: 'Every user of the platform',
};

export function NewsletterListPage({ page, organisation, list, done }: { page: PageContext; organisation: Organisation; list: Awaited<ReturnType<typeof listNewsletters>>; done: string | null }) {
  const { lang } = page;
  const title = t(lang, 'Newsletters of %(organisation)s', { organisation: organisation.name });
  return (
    <Layout page={page} title={title}>
      <h1>{title}</h1>
      <OrganisationTabs page={page} organisation={organisation.slug} current="newsletters" />
      {done && <Notice>{t(lang, done)}</Notice>}
      <p>
        <a class="btn" href={newsletterCreatePath(organisation.slug)}>
          {t(lang, 'New newsletter')}
        </a>
      </p>
      {list.length ? (
        <DataTable headers={[t(lang, 'Subject'), t(lang, 'Project'), t(lang, 'Receivers'), t(lang, 'Sent on'), t(lang, 'Delivery')]}>
          {list.map((n) => (
            <tr>
              <td>
                {n.subject}
                {n.isDraft && (
                  <>
                    {' '}
                    (<a href={`${newsletterCreatePath(organisation.slug)}?draft=${n.id}`}>{t(lang, 'write it as a new newsletter')}</a>)
                  </>
                )}
              </td>
              <td>{n.projectName ?? '—'}</td>
              <td>{t(lang, TARGET_GROUP_LABELS[n.targetGroup])}</td>
              <td>{n.isDraft ? t(lang, 'Draft, never sent') : formatDateTime(n.created, lang, page.timeZone)}</td>
              <td>
                {n.isDraft ? '—' : t(lang, '%(delivered)s of %(receivers)s e-mails sent', { delivered: n.sent, receivers: n.receivers })}
                {n.pending > 0 && ` (${t(lang, 'delivering…')})`}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p>{t(lang, 'No newsletter has been sent yet.')}</p>
      )}
    </Layout>
  );
}

export function NewsletterFormPage(props: { page: PageContext; organisation: Organisation; projects: Awaited<ReturnType<typeof newsletterProjects>>; values: Partial<NewsletterValues>; errors: Record<string, string[]> }) {
  const { page, organisation, values, errors } = props;
  const { lang } = page;
  const title = t(lang, 'New newsletter');
  const tr = (list?: string[]) => list?.map((e) => t(lang, e, { max: NEWSLETTER_TEXT_MAX_LENGTH }));
  return (
    <Layout page={page} title={title} scripts={RICH_TEXT_SCRIPTS}>
      <h1>{title}</h1>
      <OrganisationTabs page={page} organisation={organisation.slug} current="newsletters" />
      <p>{t(lang, "The newsletter goes to the project's followers who agreed to receive newsletters.")}</p>
      {Object.keys(errors).length > 0 && <FormErrors errors={[t(lang, 'Please correct the errors below.')]} />}
      <form method="post" action={newsletterCreatePath(organisation.slug)} noValidate>
        <CsrfField page={page} />
        <Input name="sender_name" label={t(lang, 'Sender name')} value={values.sender_name} maxLength={NEWSLETTER_TEXT_MAX_LENGTH} required errors={tr(errors.sender_name)} />
        <Input name="sender_email" type="email" label={t(lang, 'Sender e-mail address')} value={values.sender_email} maxLength={NEWSLETTER_TEXT_MAX_LENGTH} errors={tr(errors.sender_email)} help={t(lang, 'Answers to the newsletter go to this address (optional).')} />
        <Select
          name="project"
          label={t(lang, 'Project')}
          value={values.project}
          required
          errors={tr(errors.project)}
          choices={[{ value: '', label: t(lang, 'Choose a project') }, ...props.projects.map((p) => ({ value: String(p.id), label: p.name }))]}
        />
        <Input name="subject" label={t(lang, 'Subject')} value={values.subject} maxLength={NEWSLETTER_TEXT_MAX_LENGTH} required errors={tr(errors.subject)} />
        <TextArea name="body" label={t(lang, 'Text')} value={values.body} rows={14} richText={lang} required errors={tr(errors.body)} help={`${t(lang, HTML_HELP)} ${t(lang, 'Images should be at most 650 pixels wide.')}`} />
        <button type="submit">{t(lang, 'Send newsletter')}</button>
      </form>
    </Layout>
  );
}
