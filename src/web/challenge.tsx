import { h } from 'preact';
import { CHALLENGE_FIELDS, type ChallengeQuestion, HONEYPOT_FIELD } from '../http/challenge.js';
import { t } from '../i18n/index.js';
import type { PageContext } from './context.js';
import { Field, FieldErrors } from './layout.js';

/**
 * The spam check of an open form (src/http/challenge.ts): the ALTCHA widget, which solves its
 * challenge by itself once the page has loaded (nothing to click, a status line for screen
 * readers); without JavaScript a small sum to type instead; and the honeypot, which no person
 * sees or reaches with the keyboard.
 */
export function ChallengeField({ page, question, errors }: { page: PageContext; question: ChallengeQuestion; errors?: string[] }) {
  const { lang } = page;
  const errorId = 'id_challenge_errors';
  return (
    <div class={`field challenge${errors?.length ? ' has-error' : ''}`}>
      <link rel="stylesheet" href="/static/altcha/altcha.css" />
      <script src="/static/altcha/de.js" defer />
      <script src="/static/altcha-setup.js" defer />
      <script src="/static/altcha/altcha.js" defer />
      {h('altcha-widget', { challenge: '/challenge/', name: CHALLENGE_FIELDS.proofOfWork, auto: 'onload', language: lang, configuration: JSON.stringify({ hideLogo: true, hideFooter: true }) })}
      <noscript>
        <input type="hidden" name={CHALLENGE_FIELDS.questionToken} value={question.token} />
        <Field name={CHALLENGE_FIELDS.answer} label={t(lang, 'Spam check: what is %(a)s plus %(b)s?', { a: question.a, b: question.b })} autocomplete="off" required />
      </noscript>
      <FieldErrors id={errorId} errors={errors} />
      <div class="honeypot" aria-hidden="true">
        <label for={`id_${HONEYPOT_FIELD}`}>{t(lang, 'Leave this field empty (for robots only)')}</label>
        <input type="text" id={`id_${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} tabIndex={-1} autocomplete="off" />
      </div>
    </div>
  );
}
