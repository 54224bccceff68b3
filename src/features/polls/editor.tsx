import { asc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { pollQuestions, polls } from './schema.js';
import type { FieldErrors } from '../../http/errors.js';
import { type Lang, t, tn } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { FieldErrors as Errors } from '../../web/layout.js';
import type { DashboardComponentForm, DashboardModuleRef, DashboardSite } from '../moduletypes/contract.js';
import { ImageInvalid } from '../../media/images.js';
import { QUESTION_IMAGE_HELP, removePollImage, storePollImage } from './images.js';
import { loadStoredQuestions } from './queries.js';
import { checkPollEdit, type EditProblem, imageAltTextProblems, type QuestionInput } from './rules.js';
import { ensurePoll, savePoll } from './services.js';

/**
 * The dashboard's poll editor (component `polls`), one form that works without JavaScript: every
 * question with its label, explanation, kind, confidentiality, position (reordering) and a delete
 * box, and its choices (clearing a label deletes the choice; one may be the "other" choice); one
 * empty question and two empty choices per question to add. A save that would lose votes names
 * them and asks to confirm; one that would falsify results (switching the kind) is refused.
 * Each question may carry an image with its alternative text (issue 36.10; the form is then sent
 * as multipart), as the API's `image_base64` sets it.
 */

const NEW_CHOICES = 2;
const KINDS = ['single', 'multiple', 'open'] as const;
type Kind = (typeof KINDS)[number];
const kindOf = (q: { isOpen: boolean; multipleChoice: boolean }): Kind => (q.isOpen ? 'open' : q.multipleChoice ? 'multiple' : 'single');

async function values(db: DbOrTx, module: DashboardModuleRef): Promise<Record<string, string>> {
  const [poll] = await db.select().from(polls).where(eq(polls.moduleId, module.id)).orderBy(asc(polls.id)).limit(1);
  const out: Record<string, string> = { allow_unregistered_users: poll?.allowUnregisteredUsers ? 'on' : '', hide_results_until_finished: poll?.hideResultsUntilFinished ? 'on' : '' };
  const stored = poll ? await loadStoredQuestions(db, poll.id) : [];
  const details = poll
    ? await db
        .select({ id: pollQuestions.id, helpText: pollQuestions.helpText, isConfidential: pollQuestions.isConfidential, image: pollQuestions.image, imageAltText: pollQuestions.imageAltText })
        .from(pollQuestions)
        .where(eq(pollQuestions.pollId, poll.id))
    : [];
  stored.forEach((q, i) => {
    const detail = details.find((d) => d.id === q.id);
    Object.assign(out, {
      [`q${i}_id`]: String(q.id),
      [`q${i}_label`]: q.label,
      [`q${i}_help_text`]: detail?.helpText ?? '',
      [`q${i}_kind`]: kindOf(q),
      [`q${i}_confidential`]: detail?.isConfidential ? 'on' : '',
      [`q${i}_image_alt_text`]: detail?.imageAltText ?? '',
      [`q${i}_image_path`]: detail?.image ?? '',
      [`q${i}_position`]: String(i + 1),
      [`q${i}_votes`]: String(q.choices.reduce((n, c) => n + c.voteCount, 0) + q.answerCount),
      [`q${i}_choices`]: String(q.choices.length + NEW_CHOICES),
    });
    q.choices.forEach((c, j) => {
      out[`q${i}_c${j}_id`] = String(c.id);
      out[`q${i}_c${j}_label`] = c.label;
      out[`q${i}_c${j}_votes`] = String(c.voteCount);
      if (c.isOtherChoice) out[`q${i}_other`] = String(j);
    });
  });
  out[`q${stored.length}_position`] = String(stored.length + 1);
  out[`q${stored.length}_choices`] = String(NEW_CHOICES + 1);
  out.questions = String(stored.length + 1);
  return out;
}

const checked = (body: Record<string, string>, name: string) => body[name] === 'on';
const slots = (body: Record<string, string>, name: string, max: number) => Math.min(max, Math.max(0, Number.parseInt(body[name] ?? '0', 10) || 0));
const idIn = (value: string | undefined) => (value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

/** The posted questions in their new order (without the deleted and the empty new ones), with the form slot of each. */
function parse(body: Record<string, string>): { questions: QuestionInput[]; slotOf: number[] } {
  const entries: { position: number; slot: number; input: QuestionInput }[] = [];
  for (let i = 0; i < slots(body, 'questions', 200); i++) {
    const id = idIn(body[`q${i}_id`]);
    const label = (body[`q${i}_label`] ?? '').trim();
    const kind: Kind = KINDS.find((k) => k === body[`q${i}_kind`]) ?? 'single';
    const choices: QuestionInput['choices'] = [];
    for (let j = 0; j < slots(body, `q${i}_choices`, 200); j++) {
      const choiceLabel = (body[`q${i}_c${j}_label`] ?? '').trim();
      if (choiceLabel) choices.push({ id: idIn(body[`q${i}_c${j}_id`]), label: choiceLabel, isOtherChoice: body[`q${i}_other`] === String(j) });
    }
    if (id !== undefined && checked(body, `q${i}_delete`)) continue;
    if (id === undefined && !label && !choices.length) continue;
    const position = Number.parseInt(body[`q${i}_position`] ?? '', 10);
    entries.push({
      position: Number.isFinite(position) ? position : i + 1,
      slot: i,
      input: {
        id,
        label,
        helpText: (body[`q${i}_help_text`] ?? '').trim(),
        multipleChoice: kind === 'multiple',
        isOpen: kind === 'open',
        isConfidential: checked(body, `q${i}_confidential`),
        imageAltText: (body[`q${i}_image_alt_text`] ?? '').trim().slice(0, 80),
        image: checked(body, `q${i}_image_clear`) ? null : undefined,
        choices: kind === 'open' ? [] : choices,
      },
    });
  }
  entries.sort((a, b) => a.position - b.position || a.slot - b.slot);
  return { questions: entries.map((e) => e.input), slotOf: entries.map((e) => e.slot) };
}

/** Where a problem shows in the form: beside the question's field it is about, or above the questions. */
function errorKey(problem: EditProblem, slotOf: number[]): string {
  const [, index, field] = problem.path;
  if (typeof index !== 'number') return 'questions';
  const name =
    field === 'is_open' || field === 'multiple_choice' ? 'kind' : field === 'label' || field === 'help_text' || field === 'image_alt_text' ? field : field === 'image' ? 'image' : 'choices';
  return `q${slotOf[index]}_${name}`;
}

/** Stores the uploaded question images (checked as the API checks them); a refused one is a problem beside its field. */
async function storeImages(site: DashboardSite, questions: QuestionInput[], slotOf: number[]): Promise<{ stored: string[]; problems: EditProblem[] }> {
  const stored: string[] = [];
  const problems: EditProblem[] = [];
  for (const [i, question] of questions.entries()) {
    const upload = site.uploads[`q${slotOf[i]}_image`];
    if (!upload) continue;
    try {
      question.image = await storePollImage(site.media, upload);
      stored.push(question.image);
    } catch (error) {
      if (!(error instanceof ImageInvalid)) throw error;
      problems.push({ path: ['questions', i, 'image'], message: error.message });
    }
  }
  return { stored, problems };
}

async function save(db: Db, module: DashboardModuleRef, body: Record<string, string>, lang: Lang, userId: number, site: DashboardSite): Promise<{ values: Record<string, string>; errors: FieldErrors }> {
  const { questions, slotOf } = parse(body);
  const errors: FieldErrors = {};
  const confirmed = checked(body, 'confirm_delete');
  const images = await storeImages(site, questions, slotOf);
  let unused: string[] = [];
  try {
    await db.transaction(async (tx) => {
      const pollId = await ensurePoll(tx, module.id, userId);
      const stored = await loadStoredQuestions(tx, pollId);
      const strict = checkPollEdit(questions, stored);
      const lenient = checkPollEdit(questions, stored, { deleteWithVotes: true });
      const withImages = images.problems.length ? images.problems : imageAltTextProblems(questions, new Set(stored.filter((q) => q.hasImage).map((q) => q.id)));
      for (const problem of [...(confirmed ? lenient : strict), ...withImages]) (errors[errorKey(problem, slotOf)] ??= []).push(t(lang, problem.message, problem.vars));
      if (!confirmed && strict.length > lenient.length) errors.confirm_delete = [t(lang, 'Tick the box to delete these votes, or keep the questions and choices that have them.')];
      if (Object.keys(errors).length) return;
      unused = await savePoll(tx, pollId, { allowUnregisteredUsers: checked(body, 'allow_unregistered_users'), hideResultsUntilFinished: checked(body, 'hide_results_until_finished'), questions });
    });
  } catch (error) {
    await removePollImage(site.media, ...images.stored);
    throw error;
  }
  // A refused form keeps no new file; a saved one lets go of the files no question names any more.
  await removePollImage(site.media, ...(Object.keys(errors).length ? images.stored : unused));
  return { values: body, errors };
}

function Check({ name, label, values, help }: { name: string; label: string; values: Record<string, string>; help?: string }) {
  return (
    <div class="field check">
      <input type="checkbox" id={`id_${name}`} name={name} value="on" checked={values[name] === 'on'} aria-describedby={help ? `id_${name}_help` : undefined} />{' '}
      <label for={`id_${name}`}>{label}</label>
      {help ? (
        <p class="help" id={`id_${name}_help`}>
          {help}
        </p>
      ) : null}
    </div>
  );
}

function Text({ name, label, values, errors, max }: { name: string; label: string; values: Record<string, string>; errors: FieldErrors; max?: number }) {
  const errs = errors[name];
  return (
    <p class={`field${errs?.length ? ' has-error' : ''}`}>
      <label for={`id_${name}`}>{label}</label>
      <input type="text" id={`id_${name}`} name={name} value={values[name] ?? ''} maxLength={max} aria-invalid={errs?.length ? 'true' : undefined} aria-describedby={errs?.length ? `id_${name}_errors` : undefined} />
      <Errors id={`id_${name}_errors`} errors={errs} />
    </p>
  );
}

function QuestionSlot({ page, i, values, errors }: { page: PageContext; i: number; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  const isNew = !values[`q${i}_id`];
  const votes = Number(values[`q${i}_votes`] ?? 0);
  const choiceSlots = slots(values, `q${i}_choices`, 200);
  const legend = isNew ? t(lang, 'Add a question') : t(lang, 'Question %(n)s', { n: i + 1 });
  return (
    <fieldset class="poll-editor-question">
      <legend>{legend}</legend>
      {values[`q${i}_id`] ? <input type="hidden" name={`q${i}_id`} value={values[`q${i}_id`]} /> : null}
      <input type="hidden" name={`q${i}_choices`} value={String(choiceSlots)} />
      <Text name={`q${i}_label`} label={t(lang, 'Question')} values={values} errors={errors} max={255} />
      <Text name={`q${i}_help_text`} label={t(lang, 'Explanation')} values={values} errors={errors} max={250} />
      <p class={`field${errors[`q${i}_kind`]?.length ? ' has-error' : ''}`}>
        <label for={`id_q${i}_kind`}>{t(lang, 'Kind of question')}</label>
        <select id={`id_q${i}_kind`} name={`q${i}_kind`}>
          {KINDS.map((kind) => (
            <option value={kind} selected={(values[`q${i}_kind`] ?? 'single') === kind}>
              {t(lang, kind === 'single' ? 'Single choice' : kind === 'multiple' ? 'Multiple choice' : 'Open question')}
            </option>
          ))}
        </select>
        <Errors id={`id_q${i}_kind_errors`} errors={errors[`q${i}_kind`]} />
      </p>
      <Check name={`q${i}_confidential`} label={t(lang, 'Confidential answers')} values={values} help={t(lang, 'Individual responses are not shown publicly; only the number of submissions is visible.')} />
      <QuestionImage page={page} i={i} values={values} errors={errors} />
      <Text name={`q${i}_position`} label={t(lang, 'Position')} values={values} errors={errors} max={5} />
      <fieldset class="poll-editor-choices">
        <legend>{t(lang, 'Choices (not for open questions; clear a label to delete the choice)')}</legend>
        {Array.from({ length: choiceSlots }, (_, j) => {
          const choiceVotes = Number(values[`q${i}_c${j}_votes`] ?? 0);
          return (
            <p class="field poll-editor-choice">
              {values[`q${i}_c${j}_id`] ? <input type="hidden" name={`q${i}_c${j}_id`} value={values[`q${i}_c${j}_id`]} /> : null}
              <label for={`id_q${i}_c${j}_label`}>{t(lang, 'Choice %(n)s', { n: j + 1 })}</label>
              <input type="text" id={`id_q${i}_c${j}_label`} name={`q${i}_c${j}_label`} value={values[`q${i}_c${j}_label`] ?? ''} maxLength={255} />{' '}
              <input type="radio" id={`id_q${i}_other_${j}`} name={`q${i}_other`} value={String(j)} checked={values[`q${i}_other`] === String(j)} />{' '}
              <label for={`id_q${i}_other_${j}`}>{t(lang, '"Other" choice with free text')}</label>
              {choiceVotes ? <span class="help"> {tn(lang, '%(n)s vote', '%(n)s votes', choiceVotes, { n: choiceVotes })}</span> : null}
            </p>
          );
        })}
        <Errors id={`id_q${i}_choices_errors`} errors={errors[`q${i}_choices`]} />
      </fieldset>
      {isNew ? null : (
        <Check
          name={`q${i}_delete`}
          label={t(lang, 'Delete this question')}
          values={values}
          help={votes ? tn(lang, 'This question has %(n)s vote or answer; deleting the question deletes it.', 'This question has %(n)s votes and answers; deleting it deletes them.', votes, { n: votes }) : undefined}
        />
      )}
    </fieldset>
  );
}

/** A question's image: the current one (with a box to remove it), a file to put in its place, the alternative text. */
function QuestionImage({ page, i, values, errors }: { page: PageContext; i: number; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  const current = values[`q${i}_image_path`];
  const errs = errors[`q${i}_image`];
  return (
    <>
      {current ? (
        <p class="field">
          <img src={`/media/${current}`} alt={values[`q${i}_image_alt_text`] ?? ''} width={300} />
          <input type="hidden" name={`q${i}_image_path`} value={current} />
        </p>
      ) : null}
      {current ? <Check name={`q${i}_image_clear`} label={t(lang, 'Remove the image')} values={values} /> : null}
      <p class={`field${errs?.length ? ' has-error' : ''}`}>
        <label for={`id_q${i}_image`}>{t(lang, 'Image')}</label>
        <input type="file" id={`id_q${i}_image`} name={`q${i}_image`} accept="image/png,image/jpeg,image/gif" aria-describedby={`id_q${i}_image_help${errs?.length ? ` id_q${i}_image_errors` : ''}`} />
        <span class="help" id={`id_q${i}_image_help`}>
          {t(lang, QUESTION_IMAGE_HELP)}
        </span>
        <Errors id={`id_q${i}_image_errors`} errors={errs} />
      </p>
      <Text name={`q${i}_image_alt_text`} label={t(lang, 'Alternative text of the image')} values={values} errors={errors} max={80} />
    </>
  );
}

function Fields({ page, values, errors }: { page: PageContext; module: DashboardModuleRef; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  const count = slots(values, 'questions', 200);
  return (
    <div class="poll-editor">
      <input type="hidden" name="questions" value={String(count)} />
      <Check name="allow_unregistered_users" label={t(lang, 'Allow unregistered users to vote')} values={values} help={t(lang, 'Only in public projects. Unregistered voters solve a spam check.')} />
      <Check name="hide_results_until_finished" label={t(lang, 'Hide results until participation is over')} values={values} />
      <Errors id="id_questions_errors" errors={errors.questions} />
      {Array.from({ length: count }, (_, i) => (
        <QuestionSlot page={page} i={i} values={values} errors={errors} />
      ))}
      {errors.confirm_delete ? (
        <div class="field check has-error">
          <input type="checkbox" id="id_confirm_delete" name="confirm_delete" value="on" aria-describedby="id_confirm_delete_errors" />{' '}
          <label for="id_confirm_delete">{t(lang, 'Yes, delete these votes')}</label>
          <Errors id="id_confirm_delete_errors" errors={errors.confirm_delete} />
        </div>
      ) : null}
    </div>
  );
}

/** The `polls` component's form (registered in module-type.tsx). */
export const pollEditor: DashboardComponentForm = { values, Fields, save, uploads: (field) => /^q\d{1,3}_image$/.test(field) };
