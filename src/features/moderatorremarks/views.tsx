import type { FieldErrors } from '../../http/errors.js';
import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { TextArea } from '../../web/controls.js';
import { CsrfField, Layout } from '../../web/layout.js';
import type { ProjectRemark } from './queries.js';
import { REMARK_LIMIT } from './rules.js';

/** The remark's form: the text (an empty one deletes it), where to go back to, Save. */
function RemarkForm({ page, action, next, remark, errors }: { page: PageContext; action: string; next: string; remark: string; errors: FieldErrors }) {
  const { lang } = page;
  return (
    <form method="post" action={action} class="remark-form" noValidate>
      <CsrfField page={page} />
      <input type="hidden" name="next" value={next} />
      <TextArea name="remark" label={t(lang, 'Moderator remark')} value={remark} rows={3} maxLength={REMARK_LIMIT.maxChars} errors={errors.remark} help={t(lang, 'Only the moderators and initiators of the project see this note; an empty note is deleted.')} />
      <button type="submit">{t(lang, 'Save remark')}</button>
    </form>
  );
}

/** The remark box of an item page, for moderators (the loader shows it only to them). */
export function RemarkPanel({ page, action, next, remark }: { page: PageContext; action: string; next: string; remark: string }) {
  return (
    <aside class="moderator-remark" aria-label={t(page.lang, 'Moderator remark')}>
      <RemarkForm page={page} action={action} next={next} remark={remark} errors={{}} />
    </aside>
  );
}

/** The remark's own page (after a refused save, and from the moderation queue): the errors beside the field. */
export function RemarkPage({ page, item, action, next, remark, errors }: { page: PageContext; item: { name: string; path: string }; action: string; next: string; remark: string; errors: FieldErrors }) {
  const { lang } = page;
  return (
    <Layout page={page} title={`${t(lang, 'Moderator remark')}: ${item.name}`}>
      <h1>{t(lang, 'Moderator remark')}</h1>
      <p>
        <a href={item.path}>{item.name}</a>
      </p>
      <RemarkForm page={page} action={action} next={next} remark={remark} errors={errors} />
    </Layout>
  );
}

/** The moderation queue's list of the project's items with a remark, newest change first. */
export function ProjectRemarks({ page, remarks, editPath }: { page: PageContext; remarks: ProjectRemark[]; editPath: (remark: ProjectRemark) => string }) {
  const { lang, timeZone } = page;
  if (!remarks.length) return null;
  return (
    <section aria-labelledby="remarks-heading">
      <h2 id="remarks-heading">{t(lang, 'Moderator remarks')}</h2>
      <ul class="moderation-comments">
        {remarks.map((remark) => (
          <li>
            <a href={remark.path}>{remark.name}</a> <span class="meta">{formatDateTime(remark.changed, lang, timeZone)}</span>
            <p class="pre-line">{remark.remark}</p>
            <a href={editPath(remark)} aria-label={`${t(lang, 'Edit remark')}: ${remark.name}`}>
              {t(lang, 'Edit remark')}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
