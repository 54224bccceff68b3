import type { ComponentChildren } from 'preact';
import type { ChallengeQuestion } from '../../http/challenge.js';
import { t, tn } from '../../i18n/index.js';
import { ChallengeField } from '../../web/challenge.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField } from '../../web/layout.js';
import { OrganisationTermsField } from '../../web/organisation-terms.js';

/** A question of the module page's poll, with its results as the caller may see them. */
interface QuestionView {
  id: number;
  label: string;
  helpText: string;
  multipleChoice: boolean;
  isOpen: boolean;
  isConfidential: boolean;
  image: { url: string; alt: string } | null;
  choices: { id: number; label: string; isOther: boolean; count: number; percent: number }[];
  userChoices: number[];
  userOther: string;
  userAnswer: string;
  answers: string[];
  otherAnswers: string[];
  voters: number;
}

/** The module page's poll: questions, the form (or why there is none), results. */
export interface PollView {
  pollId: number;
  action: string;
  questions: QuestionView[];
  participants: number;
  /** For those who may change the poll: its unregistered ballots and the distinct addresses they came from. */
  unregistered: { ballots: number; addresses: number } | null;
  /** vote: the form; login: "log in to take part"; closed: results only. */
  mode: 'vote' | 'login' | 'closed';
  hidden: boolean;
  hasUserVote: boolean;
  terms: { asked: boolean; slug: string };
  /** The spam check of an unregistered voter (the widget, or a sum without JavaScript). */
  challenge: ChallengeQuestion | null;
  loginUrl: string;
}

const fieldName = (question: { id: number }, part = '') => `q${question.id}${part}`;

function QuestionFields({ page, question, index, total }: { page: PageContext; question: QuestionView; index: number; total: number }) {
  const { lang } = page;
  const legendId = `poll-q${question.id}-legend`;
  const helpId = `poll-q${question.id}-help`;
  return (
    <fieldset class="poll-question" data-step={index} aria-describedby={question.helpText ? helpId : undefined}>
      <legend id={legendId}>
        <span class="poll-step-count">{t(lang, 'Question %(n)s of %(total)s', { n: index + 1, total })}: </span>
        {question.label}
      </legend>
      {question.helpText ? (
        <p class="help" id={helpId}>
          {question.helpText}
        </p>
      ) : null}
      {question.image ? <img class="poll-image" src={question.image.url} alt={question.image.alt} /> : null}
      {question.isConfidential ? <p class="help">{t(lang, 'Individual responses are not shown publicly; only the number of submissions is visible.')}</p> : null}
      {question.isOpen ? (
        <p class="field">
          <label for={`id_${fieldName(question, '_open')}`}>{t(lang, 'Your answer')}</label>
          <textarea id={`id_${fieldName(question, '_open')}`} name={fieldName(question, '_open')} maxLength={750} rows={4}>
            {question.userAnswer}
          </textarea>
        </p>
      ) : (
        <ul class="poll-choices">
          {question.multipleChoice ? <li class="help">{t(lang, 'Multiple answers are possible.')}</li> : null}
          {question.choices.map((choice) => {
            const id = `id_${fieldName(question)}_${choice.id}`;
            return (
              <li>
                <input type={question.multipleChoice ? 'checkbox' : 'radio'} id={id} name={fieldName(question)} value={String(choice.id)} checked={question.userChoices.includes(choice.id)} />{' '}
                <label for={id}>{choice.label}</label>
                {choice.isOther ? (
                  <span class="poll-other">
                    {' '}
                    <label for={`id_${fieldName(question, '_other')}`} class="visually-hidden">
                      {t(lang, 'Other: please specify')}
                    </label>
                    <input type="text" id={`id_${fieldName(question, '_other')}`} name={fieldName(question, '_other')} maxLength={250} value={question.userOther} />
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

function PollForm({ page, view }: { page: PageContext; view: PollView }) {
  const { lang } = page;
  return (
    <form method="post" action={view.action} class="poll-form" id={`poll-${view.pollId}-form`}>
      <CsrfField page={page} />
      {view.questions.map((question, index) => (
        <QuestionFields page={page} question={question} index={index} total={view.questions.length} />
      ))}
      <div class="poll-submit">
        {view.terms.asked ? <OrganisationTermsField lang={lang} id={`id_poll_${view.pollId}_terms`} slug={view.terms.slug} /> : null}
        {view.challenge ? <ChallengeField page={page} question={view.challenge} /> : null}
        <button type="submit">{view.hasUserVote ? t(lang, 'Change my answers') : t(lang, 'Submit answers')}</button>
      </div>
    </form>
  );
}

/** The anchor of a question's place on the module page (its results), where a result that answers it is named. */
export const questionAnchor = (questionId: number) => `poll-question-${questionId}`;

/** What the page says beside a question besides its votes (what became of it, issue 39), or null. */
type BesideQuestion = (questionId: number) => ComponentChildren;

function QuestionResults({ page, question, beside }: { page: PageContext; question: QuestionView; beside: BesideQuestion }) {
  const { lang } = page;
  return (
    <li class="poll-result" id={questionAnchor(question.id)}>
      <h4>{question.label}</h4>
      {beside(question.id)}
      {question.isOpen ? (
        <p>{tn(lang, '%(n)s answer', '%(n)s answers', question.voters, { n: question.voters })}</p>
      ) : (
        <ul class="poll-bars">
          {question.choices.map((choice) => {
            const labelId = `poll-result-${choice.id}`;
            return (
              <li>
                <span id={labelId}>{choice.label}</span>{' '}
                <progress max={100} value={choice.percent} aria-labelledby={labelId} />{' '}
                <span>
                  {choice.percent} % ({tn(lang, '%(n)s vote', '%(n)s votes', choice.count, { n: choice.count })})
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {question.answers.length ? (
        <details>
          <summary>{t(lang, 'Answers')}</summary>
          <ul class="poll-answers">
            {question.answers.map((answer) => (
              <li>{answer}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {question.otherAnswers.length ? (
        <details>
          <summary>{t(lang, 'Other answers')}</summary>
          <ul class="poll-answers">
            {question.otherAnswers.map((answer) => (
              <li>{answer}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}

/** While the votes are hidden: the questions that something stands beside, with it. */
function HiddenResultsBeside({ view, beside }: { view: PollView; beside: BesideQuestion }) {
  const notes = view.questions.flatMap((question) => {
    const note = beside(question.id);
    return note ? [{ question, note }] : [];
  });
  if (!notes.length) return null;
  return (
    <ul class="poll-beside">
      {notes.map(({ question, note }) => (
        <li id={questionAnchor(question.id)}>
          <h4>{question.label}</h4>
          {note}
        </li>
      ))}
    </ul>
  );
}

/** The poll on its module page: without JavaScript one form with every question; poll-steps.js shows one question per step. */
export function PollSection({ page, view, beside = () => null }: { page: PageContext; view: PollView; beside?: BesideQuestion }) {
  const { lang } = page;
  if (!view.questions.length) return <p>{t(lang, 'This poll has no questions yet.')}</p>;
  return (
    <div class="poll" data-poll={view.pollId}>
      <script src="/static/poll-steps.js" defer />
      <p>
        {tn(lang, '%(n)s question', '%(n)s questions', view.questions.length, { n: view.questions.length })} · {tn(lang, '%(n)s participant', '%(n)s participants', view.participants, { n: view.participants })}
      </p>
      {view.mode === 'vote' ? <PollForm page={page} view={view} /> : null}
      {view.mode === 'login' ? (
        <p>
          <a href={view.loginUrl}>{t(lang, 'Please log in to take part in the poll.')}</a>
        </p>
      ) : null}
      <section aria-labelledby={`poll-${view.pollId}-results`} class="poll-results">
        <h3 id={`poll-${view.pollId}-results`}>{t(lang, 'Results')}</h3>
        {view.unregistered ? <p class="help">{t(lang, 'Ballots without an account: %(ballots)s, from different addresses: %(addresses)s', view.unregistered)}</p> : null}
        {view.hidden ? (
          <>
            <p>{t(lang, 'The results will be shown when the poll is over.')}</p>
            <HiddenResultsBeside view={view} beside={beside} />
          </>
        ) : (
          <ol>
            {view.questions.map((question) => (
              <QuestionResults page={page} question={question} beside={beside} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
