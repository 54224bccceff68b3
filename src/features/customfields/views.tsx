import { t, type Lang } from '../../i18n/index.js';
import type { FieldErrors } from '../../http/errors.js';
import { Select, TextArea } from '../../web/controls.js';
import { answerName, CUSTOM_FIELD_LIMITS, type CustomAnswer, type CustomField, isFilterable } from './rules.js';

/** The questions of a module on its item form, each with its help and its errors beside it. */
export function CustomFieldInputs({ lang, fields, values, errors }: { lang: Lang; fields: CustomField[]; values: Record<string, string>; errors: FieldErrors }) {
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  return (
    <>
      {fields.map((field) => {
        const name = answerName(field.id);
        const common = { name, label: field.label, value: values[name] ?? '', errors: tr(errors[name]), help: field.helpText || undefined, required: field.required };
        return field.kind === 'choice' ? (
          <Select {...common} choices={[{ value: '', label: t(lang, '(no answer)') }, ...field.choices.map((c) => ({ value: String(c.id), label: c.label }))]} />
        ) : (
          <TextArea {...common} rows={3} maxLength={CUSTOM_FIELD_LIMITS.answer.maxChars} />
        );
      })}
    </>
  );
}

/** The form values of an item's stored answers (a choice by its id). */
export const answerValues = (answers: CustomAnswer[]): Record<string, string> =>
  Object.fromEntries(answers.map((a) => [answerName(a.field), a.choice !== null ? String(a.choice) : a.answer]));

/** The answered questions of an item, on its page. */
export function CustomAnswers({ lang, answers }: { lang: Lang; answers: CustomAnswer[] }) {
  const given = answers.filter((a) => a.answer !== '');
  if (!given.length) return null;
  return (
    <section class="custom-answers" aria-labelledby="custom-answers-heading">
      <h2 id="custom-answers-heading" class="visually-hidden">
        {t(lang, 'Answers to the questions')}
      </h2>
      <dl>
        {given.map((a) => (
          <>
            <dt>{a.question}</dt>
            <dd>{a.answer}</dd>
          </>
        ))}
      </dl>
    </section>
  );
}

/** The list's filter by an answer: one select, a group of choices per choice question; nothing when there are none. */
export function AnswerFilter({ lang, fields, selected }: { lang: Lang; fields: CustomField[]; selected: number | null }) {
  const filterable = fields.filter(isFilterable);
  if (!filterable.length) return null;
  return (
    <div class="field">
      <label for="id_answer">{t(lang, 'Answer')}</label>
      <select id="id_answer" name="answer">
        <option value="">{t(lang, 'All')}</option>
        {filterable.map((field) => (
          <optgroup label={field.label}>
            {field.choices.map((c) => (
              <option value={String(c.id)} selected={selected === c.id}>
                {c.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}
