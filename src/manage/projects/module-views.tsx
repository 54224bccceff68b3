import { ALIAS_HELP_MAX, ALIAS_MAX } from '../../core/modules/terms.js';
import type { FieldErrors } from '../../http/errors.js';
import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { PostButton } from '../../web/components.js';
import { CsrfField, FormErrors } from '../../web/layout.js';
import { labelIn, type ModuleComponent, moduleTypes } from '../../core/modules/registry.js';
import type { DashboardComponentForm, DashboardComponentPanel } from '../../features/moduletypes/contract.js';
import { modulePath } from '../../core/urls.js';
import { moduleMissing } from './completeness.js';
import { Checkbox, Input, TextArea } from '../../web/controls.js';
import { MODULE_LIMITS, NEW_TERM_ROWS, phaseField, TERM_NAME_MAX } from './module-input.js';
import { PHASE_DESCRIPTION_MAX, PHASE_NAME_MAX } from '../../core/modules/rules.js';
import { DashboardForm, type FrameData, MissingItems, ProjectFrame } from './views.js';
import { moduleActionPath, moduleComponentPath, projectActionPath } from '../../web/paths.js';
import type { DashboardModule } from './queries.js';

/** §B6/§B7: the module types to choose from; each tile posts to create a draft module. */
export function BlueprintsPage({ page, data }: { page: PageContext; data: FrameData }) {
  const { lang } = page;
  const base = projectActionPath(data.organisation.slug, data.project.slug, 'blueprints');
  return (
    <ProjectFrame page={page} data={data} title={t(lang, 'Add module')}>
      <ul class="tiles">
        {moduleTypes()
          .filter((b) => b.offered)
          .map((b) => (
          <li class="tile">
            <h2>{b.title[lang]}</h2>
            <p>{b.description[lang]}</p>
            <form method="post" action={`${base}${b.key}/`}>
              <CsrfField page={page} />
              <button type="submit" aria-label={`${t(lang, 'Add module')}: ${b.title[lang]}`}>
                {t(lang, 'Add module')}
              </button>
            </form>
          </li>
        ))}
      </ul>
    </ProjectFrame>
  );
}

/** The module's state and its add / hide / delete buttons (§B9, §B15.2–4). */
function ModuleBox({ page, data, module }: { page: PageContext; data: FrameData; module: DashboardModule }) {
  const { lang } = page;
  const action = moduleActionPath(data.organisation.slug, module.slug);
  const missing = moduleMissing(module);
  const complete = missing.length === 0;
  const button = (value: string, label: string, disabled = false) => <PostButton page={page} action={action} fields={{ action: value }} label={t(lang, label)} disabled={disabled} />;
  return (
    <section class="publish-box" aria-label={t(lang, 'Module')}>
      <p>
        <strong>{module.name || module.slug}</strong> <span class="badge">{module.isDraft ? t(lang, 'not added') : t(lang, 'added')}</span>{' '}
        {module.isDraft && (complete ? t(lang, 'Ready to be added to the project.') : t(lang, 'Not ready to be added to the project.'))}
      </p>
      <div class="actions">
        {module.isDraft ? button('add', 'Add to project') : button('hide', 'Hide from project', !data.project.isDraft)}
        {module.isDraft && button('delete', 'Delete module')}
        <a class="btn btn-secondary" href={modulePath(data.organisation.slug, module.slug)}>
          {t(lang, 'Preview')}
        </a>
      </div>
      {!complete && (
        <>
          <p>{t(lang, 'Required fields are missing:')}</p>
          <MissingItems page={page} organisation={data.organisation} projectSlug={data.project.slug} missing={missing} />
        </>
      )}
    </section>
  );
}

const CLOSED_WARNINGS = {
  past: 'No one can take part now: every phase of this published module is over. Set a later end to open it again.',
  future: 'No one can take part now: no phase of this published module has begun yet. Use "Starts now" or an earlier start to open it.',
} as const;

/** The phases' dates: what they mean, "now" where the dates are read, a "Starts now" button per phase, and a warning when a published module is closed for everyone. */
function PhaseFields({ page, module, timing, values, errors }: { page: PageContext; module: DashboardModule; timing: PhaseTiming; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  const { now, closed } = timing;
  return (
    <>
      {/* The form's default button (Enter in a field) saves; it must come before the "Starts now" buttons.
          Hidden from assistive technology too: the visible Save button is the one to use. */}
      <button type="submit" class="visually-hidden" tabindex={-1} aria-hidden="true">
        {t(lang, 'Save')}
      </button>
      {closed && (
        <p class="warning" role="alert">
          {t(lang, CLOSED_WARNINGS[closed])}
        </p>
      )}
      <p class="help">{t(lang, 'Participation is open from the start of a phase until its end; before and after, the module can be read but not taken part in.')}</p>
      <p class="help">
        {t(lang, 'Dates and times are in the time zone %(zone)s. A date without a time means 23:59.', { zone: page.timeZone })}{' '}
        {t(lang, 'It is now %(now)s there.', { now: formatDateTime(now, lang, page.timeZone) })}
      </p>
      {module.phases.map((_, i) => {
        const f = (field: string) => phaseField(i, field);
        return (
          <fieldset class="phase-form">
            <legend>{t(lang, 'Phase %(n)s', { n: i + 1 })}</legend>
            <Input name={f('name')} label={t(lang, 'Name')} value={values[f('name')]} maxLength={PHASE_NAME_MAX} errors={errors[f('name')]} />
            <TextArea name={f('description')} label={t(lang, 'Description')} value={values[f('description')]} maxLength={PHASE_DESCRIPTION_MAX} rows={3} errors={errors[f('description')]} />
            <Input name={f('start')} type="datetime-local" label={t(lang, 'Start')} value={values[f('start')]} errors={errors[f('start')]} />
            <button type="submit" name="start_now" value={String(i)} class="secondary">
              {t(lang, 'Starts now (save)')}
            </button>
            <Input name={f('end')} type="datetime-local" label={t(lang, 'End')} value={values[f('end')]} errors={errors[f('end')]} />
          </fieldset>
        );
      })}
    </>
  );
}

function TermFields({ page, kind, terms, values, errors }: { page: PageContext; kind: 'categories' | 'labels'; terms: { id: number; name: string }[]; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  const one = kind === 'categories' ? t(lang, 'Category') : t(lang, 'Label');
  return (
    <>
      <p class="help">
        {kind === 'categories'
          ? t(lang, 'When categories exist, every contribution must be assigned to exactly one of them. Deleting a category leaves its ideas without one.')
          : t(lang, 'Labels are optional; a contribution can have several.')}
      </p>
      <fieldset class="field">
        <legend>{t(lang, 'The module’s own word')}</legend>
        <Input
          name="alias"
          label={kind === 'categories' ? t(lang, 'Word for “Category”') : t(lang, 'Word for “Label”')}
          value={values.alias}
          maxLength={ALIAS_MAX}
          errors={errors.alias}
          help={t(lang, 'For example “District”. Used instead of “%(word)s” in this module’s forms, filters, lists and exports. Leave empty to keep “%(word)s”.', { word: one })}
        />
        <TextArea
          name="alias_help"
          label={t(lang, 'Help text on the form')}
          value={values.alias_help}
          maxLength={ALIAS_HELP_MAX}
          rows={2}
          errors={errors.alias_help}
          help={t(lang, 'Shown to participants beside the field when they write a contribution.')}
        />
      </fieldset>
      {terms.map((term, i) => (
        <div class="term-row">
          <Input name={`term-${term.id}`} label={`${one} ${i + 1}`} value={values[`term-${term.id}`] ?? term.name} maxLength={TERM_NAME_MAX} errors={errors[`term-${term.id}`]} />
          <Checkbox name={`delete-${term.id}`} label={t(lang, 'Delete %(name)s', { name: term.name })} checked={values[`delete-${term.id}`] === 'on'} />
        </div>
      ))}
      {Array.from({ length: NEW_TERM_ROWS }, (_, n) => (
        <Input name={`new-${n}`} label={t(lang, 'New %(term)s', { term: one })} value={values[`new-${n}`]} maxLength={TERM_NAME_MAX} errors={errors[`new-${n}`]} />
      ))}
    </>
  );
}

/** The phase form's "now" and, for a published module, why no one can take part now (`closedForAll`). */
interface PhaseTiming {
  now: Date;
  closed: 'past' | 'future' | null;
}

interface ModulePageProps {
  page: PageContext;
  timing: PhaseTiming;
  data: FrameData;
  module: DashboardModule;
  component: ModuleComponent;
  /** The form the module's type brings for this component; null for the shared ones. */
  typeForm: DashboardComponentForm | null;
  values: Record<string, string>;
  errors: FieldErrors;
  terms?: { id: number; name: string }[];
  /** A component of the module's type that is no form: its view and what it loaded. */
  panel?: { part: DashboardComponentPanel; data: unknown };
}

/** One module component's form inside the project dashboard (§B9, §B11, §B12). */
export function ModuleComponentPage({ page, data, module, component, typeForm, values, errors, terms = [], panel, timing }: ModulePageProps) {
  const { lang } = page;
  if (panel) {
    return (
      <ProjectFrame page={page} data={data} title={`${module.name || module.slug}: ${labelIn(lang, component.label)}`}>
        <ModuleBox page={page} data={data} module={module} />
        <panel.part.View page={page} module={module} orgSlug={data.organisation.slug} data={panel.data as never} />
      </ProjectFrame>
    );
  }
  return (
    <ProjectFrame page={page} data={data} title={`${module.name || module.slug}: ${labelIn(lang, component.label)}`}>
      <ModuleBox page={page} data={data} module={module} />
      <FormErrors errors={errors.non_field_errors} />
      <DashboardForm page={page} action={moduleComponentPath(data.organisation.slug, module.slug, component.key)} multipart={Boolean(typeForm?.uploads)}>
        {typeForm && <typeForm.Fields page={page} module={module} values={values} errors={errors} />}
        {component.key === 'module_basic' && (
          <>
            <Input name="name" label={t(lang, 'Title of the module')} value={values.name} maxLength={MODULE_LIMITS.name} errors={errors.name} />
            <TextArea name="description" label={t(lang, 'Module description')} value={values.description} maxLength={MODULE_LIMITS.description} rows={4} errors={errors.description} help={t(lang, 'Shown at the top of the module.')} />
          </>
        )}
        {component.key === 'phases' && <PhaseFields page={page} module={module} timing={timing} values={values} errors={errors} />}
        {(component.key === 'categories' || component.key === 'labels') && <TermFields page={page} kind={component.key} terms={terms} values={values} errors={errors} />}
      </DashboardForm>
    </ProjectFrame>
  );
}
