import type { Db } from '../../db/client.js';
import type { FieldErrors } from '../../http/errors.js';
import { t, type Lang } from '../../i18n/index.js';
import { Checkbox, Input, Select, TextArea } from '../../web/controls.js';
import { field, type FormBody } from '../../web/forms.js';
import type { DashboardComponentForm } from '../moduletypes/contract.js';
import { loadCustomFields } from './queries.js';
import { checkFieldDefinitions, CUSTOM_FIELD_LIMITS, type FieldDefinition } from './rules.js';
import { saveCustomFields } from './services.js';

/*
 * The dashboard's "Custom fields" component: the initiator's own questions on the module's idea
 * form. Every existing question is one group of fields (`field-<id>-…`), followed by one group for
 * a new question (`new-…`); a question is removed with its answers by ticking its box.
 */

const PARTS = ['label', 'help_text', 'kind', 'required', 'weight', 'choices', 'delete'] as const;
type Part = (typeof PARTS)[number];

const existingIds = (values: Record<string, string>) => [...new Set(Object.keys(values).flatMap((k) => /^field-(\d+)-label$/.exec(k)?.[1] ?? []))].map(Number);

function QuestionFields({ lang, prefix, values, errors, legend, removable }: { lang: Lang; prefix: string; values: Record<string, string>; errors: FieldErrors; legend: string; removable: boolean }) {
  const name = (part: Part) => `${prefix}${part}`;
  const kinds = [
    { value: 'text', label: t(lang, 'Open text') },
    { value: 'choice', label: t(lang, 'Choice') },
  ];
  return (
    <fieldset class="field custom-field-editor">
      <legend>{legend}</legend>
      <Input name={name('label')} label={t(lang, 'Question')} value={values[name('label')]} maxLength={CUSTOM_FIELD_LIMITS.label.maxChars} errors={errors[name('label')]} />
      <Input name={name('help_text')} label={t(lang, 'Help text')} value={values[name('help_text')]} maxLength={CUSTOM_FIELD_LIMITS.help_text.maxChars} errors={errors[name('help_text')]} />
      <Select name={name('kind')} label={t(lang, 'Kind of answer')} value={values[name('kind')] || 'text'} choices={kinds} errors={errors[name('kind')]} />
      <TextArea name={name('choices')} label={t(lang, 'Choices')} value={values[name('choices')]} rows={4} errors={errors[name('choices')]} help={t(lang, 'One choice a line (choice questions only).')} />
      <Checkbox name={name('required')} label={t(lang, 'An answer is required')} checked={values[name('required')] === 'on'} />
      <Input name={name('weight')} type="number" label={t(lang, 'Position')} value={values[name('weight')]} errors={errors[name('weight')]} help={t(lang, 'Questions are shown in ascending order of position.')} />
      {removable && <Checkbox name={name('delete')} label={t(lang, 'Remove this question and its answers')} checked={values[name('delete')] === 'on'} />}
    </fieldset>
  );
}

function Fields({ page, values, errors }: { page: { lang: Lang }; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  return (
    <>
      <p class="help">{t(lang, 'Your own questions on the idea form: participants answer them with their idea. Answers to choice questions can filter the idea list; all answers are in the export.')}</p>
      {existingIds(values).map((id, i) => (
        <QuestionFields lang={lang} prefix={`field-${id}-`} values={values} errors={errors} legend={t(lang, 'Question %(n)s', { n: i + 1 })} removable />
      ))}
      <QuestionFields lang={lang} prefix="new-" values={values} errors={errors} legend={t(lang, 'New question')} removable={false} />
    </>
  );
}

async function values(db: Db, module: { id: number }): Promise<Record<string, string>> {
  const fields = await loadCustomFields(db, module.id);
  return Object.fromEntries(
    fields.flatMap((f) => [
      [`field-${f.id}-label`, f.label],
      [`field-${f.id}-help_text`, f.helpText],
      [`field-${f.id}-kind`, f.kind],
      [`field-${f.id}-required`, f.required ? 'on' : ''],
      [`field-${f.id}-weight`, String(f.weight)],
      [`field-${f.id}-choices`, f.choices.map((c) => c.label).join('\n')],
    ]),
  );
}

/** A question's definition as posted under `prefix`, and the values to show again. */
function posted(body: FormBody, prefix: string, id: number | null): { definition: FieldDefinition; shown: Record<string, string> } {
  const read = (part: Part) => field(body, `${prefix}${part}`, part !== 'choices');
  const definition: FieldDefinition = {
    id,
    label: read('label'),
    helpText: read('help_text'),
    kind: read('kind'),
    required: read('required') === 'on',
    weight: read('weight'),
    choices: read('choices'),
    remove: read('delete') === 'on',
  };
  return { definition, shown: Object.fromEntries(PARTS.map((part) => [`${prefix}${part}`, read(part)])) };
}

/** Reads the posted questions, checks them (features/customfields/rules.ts) and saves them in one transaction; with errors nothing is saved. */
async function save(db: Db, module: { id: number }, body: FormBody, lang: Lang) {
  const stored = await loadCustomFields(db, module.id);
  const read = stored.map((f) => ({ prefix: `field-${f.id}-`, ...posted(body, `field-${f.id}-`, f.id) }));
  const fresh = posted(body, 'new-', null);
  const asked = fresh.definition.label !== '' || fresh.definition.choices.trim() !== '' || fresh.definition.helpText !== '';
  const all = [...read, ...(asked ? [{ prefix: 'new-', ...fresh }] : [])];
  const { fields, errors } = checkFieldDefinitions(all);
  const shown = Object.assign({}, ...read.map((r) => r.shown), fresh.shown) as Record<string, string>;
  const translated: FieldErrors = Object.fromEntries(Object.entries(errors).map(([k, list]) => [k, list.map((e) => t(lang, e))]));
  if (Object.keys(errors).length) return { values: shown, errors: translated };
  const removed = read.filter((r) => r.definition.remove).map((r) => r.definition.id ?? 0);
  await db.transaction((tx) => saveCustomFields(tx, module.id, fields, removed));
  return { values: shown, errors: {} };
}

export const customFieldsForm: DashboardComponentForm = { values, Fields, save };
