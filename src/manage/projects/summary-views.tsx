import type { FieldErrors } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { PostButton } from '../../web/components.js';
import { Select } from '../../web/controls.js';
import { CsrfField } from '../../web/layout.js';
import { projectComponentPath } from '../../web/paths.js';
import { MachineSummary } from '../../web/summary-text.js';
import type { ListedSummary } from '../../features/summaries/queries.js';
import { type FrameData, ProjectFrame } from './views.js';

export const summariesPath = (org: string, project: string) => projectComponentPath(org, project, 'summary');

export interface SummaryPageData {
  /** null: the operator has not turned summaries on. */
  model: string | null;
  /** Why this project's contributions may not go out (a catalogue key), or null. */
  refusal: string | null;
  modules: { id: number; name: string }[];
  summaries: ListedSummary[];
  scope: string;
  errors: FieldErrors;
  /** The model's failure, shown above the form. */
  failure: string | null;
}

/** The dashboard's machine summaries of a project (issue 34.9): ask for one, read it, publish it or take it back. */
export function SummaryPage({ page, data, summary }: { page: PageContext; data: FrameData; summary: SummaryPageData }) {
  const { lang } = page;
  const base = summariesPath(data.organisation.slug, data.project.slug);
  return (
    <ProjectFrame page={page} data={data} title={t(lang, 'Summary')}>
      {summary.model === null ? (
        <p>{t(lang, 'Machine summaries are off on this platform. The operator can turn them on by naming a language model (SUMMARIES_URL and SUMMARIES_MODEL).')}</p>
      ) : summary.refusal ? (
        <p>{t(lang, summary.refusal)}</p>
      ) : (
        <>
          <p class="help">
            {t(lang, 'A language model (%(model)s, chosen by the operator) summarises the contributions everyone can read: their titles and the visible comments, without names. Nothing is shown publicly until you publish it.', { model: summary.model })}
          </p>
          {summary.failure && (
            <p class="error" role="alert">
              {t(lang, 'The language model gave no summary (%(reason)s). Try again later.', { reason: summary.failure })}
            </p>
          )}
          <form method="post" action={base}>
            <CsrfField page={page} />
            <Select
              name="scope"
              label={t(lang, 'What to summarise')}
              value={summary.scope}
              errors={summary.errors.scope}
              choices={[{ value: '', label: t(lang, 'The whole project') }, ...summary.modules.map((m) => ({ value: String(m.id), label: m.name }))]}
            />
            <button type="submit">{t(lang, 'Make a summary')}</button>
          </form>
        </>
      )}
      {summary.summaries.map((s) => (
        <div class="summary-item">
          <MachineSummary page={page} summary={s} heading={s.moduleName ?? t(lang, 'The whole project')} />
          <p>
            {s.published ? t(lang, 'Published.') : t(lang, 'Not published.')}{' '}
            {s.helpful + s.unhelpful > 0 && `${t(lang, 'Readers found it helpful: %(helpful)s, not helpful: %(unhelpful)s.', { helpful: s.helpful, unhelpful: s.unhelpful })} `}
            <PostButton page={page} action={`${base}${s.id}/${s.published ? 'unpublish' : 'publish'}/`} label={s.published ? t(lang, 'Unpublish') : t(lang, 'Publish')} />
          </p>
        </div>
      ))}
    </ProjectFrame>
  );
}
