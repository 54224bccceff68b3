import { euros, type Lang, t, tn } from '../../i18n/index.js';
import { ideaPath, ITEM_SEGMENTS } from '../../core/urls.js';
import { Breadcrumbs } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, FieldErrors, FormErrors, Layout, Notice } from '../../web/layout.js';
import { type BudgetSettings, minimumSpend, type Problem } from './ballot-rules.js';
import { formatVoteCode } from './codes.js';
import { type RankedProposal, ResultTable, VoteChart } from './results.js';

/** The pages of the support and voting phases: pure views of what the page routes loaded. */

export interface VotingFrame {
  orgSlug: string;
  projectName: string;
  projectPath: string;
  moduleName: string;
  modulePath: string;
}

/** A proposal's page. */
export const proposalPagePath = (orgSlug: string, created: Date, id: number) => ideaPath(orgSlug, created, id, ITEM_SEGMENTS.proposal);

/** The budgeting pages of a module. */
export const budgetingPath = (orgSlug: string, moduleSlug: string, page: 'support' | 'ballot' | 'code' | 'result') => `/${orgSlug}/budgeting/module/${moduleSlug}/${page}/`;

function Frame({ page, frame, title, children }: { page: PageContext; frame: VotingFrame; title: string; children: preact.ComponentChildren }) {
  return (
    <Layout page={page} title={title}>
      <Breadcrumbs
        lang={page.lang}
        items={[
          { href: frame.projectPath, label: frame.projectName },
          { href: frame.modulePath, label: frame.moduleName },
        ]}
      />
      <h1>{title}</h1>
      {children}
    </Layout>
  );
}

export interface ProposalChoice {
  id: number;
  name: string;
  budget: number;
  path: string;
  supports: number;
  supported: boolean;
}

interface SupportPageData {
  frame: VotingFrame;
  action: string;
  proposals: ProposalChoice[];
  /** The viewer may support now. */
  canSupport: boolean;
  signedIn: boolean;
  loginPath: string;
  limit: number | null;
  used: number;
  threshold: number;
}

export function SupportPage({ page, data }: { page: PageContext; data: SupportPageData }) {
  const { lang } = page;
  return (
    <Frame page={page} frame={data.frame} title={t(lang, 'Support proposals')}>
      <p>
        {data.threshold > 0
          ? tn(lang, 'Proposals with at least %(n)s support go on to the vote.', 'Proposals with at least %(n)s supports go on to the vote.', data.threshold, { n: data.threshold })
          : t(lang, 'Every proposal goes on to the vote.')}
      </p>
      {data.canSupport && data.limit !== null && <p id="support-allowance">{tn(lang, 'You support %(used)s of at most %(limit)s proposal.', 'You support %(used)s of at most %(limit)s proposals.', data.limit, { used: data.used, limit: data.limit })}</p>}
      {!data.canSupport && !data.signedIn && (
        <Notice>
          <a href={data.loginPath}>{t(lang, 'Log in to support proposals.')}</a>
        </Notice>
      )}
      {!data.canSupport && data.signedIn && <Notice>{t(lang, 'Supporting is not possible at the moment.')}</Notice>}
      {data.proposals.length ? (
        <ul class="support-list">
          {data.proposals.map((p) => (
            <li id={`proposal-${p.id}`}>
              <a href={p.path}>{p.name}</a> <span>{euros(lang, p.budget)}</span> <span class="support-count">{tn(lang, '%(n)s support', '%(n)s supports', p.supports, { n: p.supports })}</span>
              {data.canSupport && (
                <form method="post" action={data.action} class="inline-form">
                  <CsrfField page={page} />
                  <input type="hidden" name="proposal" value={String(p.id)} />
                  <input type="hidden" name="action" value={p.supported ? 'withdraw' : 'support'} />
                  <button type="submit">{p.supported ? t(lang, 'Withdraw support for %(name)s', { name: p.name }) : t(lang, 'Support %(name)s', { name: p.name })}</button>
                </form>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'No proposals yet.')}</p>
      )}
    </Frame>
  );
}

/** A ballot's problem in words, its sums of money in euros. */
export function ballotProblemText(lang: Lang, problem: Problem) {
  const vars = Object.fromEntries(Object.entries(problem.vars ?? {}).map(([k, v]) => [k, ['sum', 'total', 'minSpend'].includes(k) ? euros(lang, Number(v)) : v]));
  return problem.plural ? tn(lang, problem.message, problem.plural.message, problem.plural.count, vars) : t(lang, problem.message, vars);
}

/** The rule of the ballot in words. */
function ballotRuleText(lang: Lang, settings: BudgetSettings) {
  const total = euros(lang, settings.totalBudget ?? 0);
  if (settings.rule === 'count')
    // At most one proposal: then at least one too (the minimum is never above the maximum).
    return tn(lang, 'The budget is %(total)s. Choose %(max)s proposal.', 'The budget is %(total)s. Choose between %(min)s and %(max)s proposals.', settings.maxProposals, { total, min: settings.minProposals, max: settings.maxProposals });
  return t(lang, 'The budget is %(total)s. Choose proposals that cost at least %(min)s (%(percent)s % of the budget) and at most the budget.', {
    total,
    min: euros(lang, minimumSpend(settings)),
    percent: settings.minPercent,
  });
}

interface BallotFormData {
  action: string;
  proposals: ProposalChoice[];
  chosen: number[];
  settings: BudgetSettings;
  errors: string[];
  /** Set on the code voter's form: the code travels along, hidden. */
  code?: string;
}

/** The ballot: a checkbox per proposal with its budget, the rule above it, errors beside it. */
function BallotForm({ page, data, submit }: { page: PageContext; data: BallotFormData; submit: string }) {
  const { lang } = page;
  return (
    <form method="post" action={data.action} class="ballot-form">
      <CsrfField page={page} />
      {data.code && <input type="hidden" name="code" value={data.code} />}
      {data.code && <input type="hidden" name="cast" value="1" />}
      <FormErrors errors={data.errors} />
      <fieldset aria-describedby="ballot-rule">
        <legend>{t(lang, 'Your choice')}</legend>
        <p id="ballot-rule">{ballotRuleText(lang, data.settings)}</p>
        {data.proposals.map((p) => (
          <div class="checkbox">
            <input type="checkbox" id={`id_proposal_${p.id}`} name="proposal" value={String(p.id)} checked={data.chosen.includes(p.id)} />
            <label for={`id_proposal_${p.id}`}>
              {p.name} ({euros(lang, p.budget)})
            </label>
          </div>
        ))}
      </fieldset>
      <button type="submit">{submit}</button>
    </form>
  );
}

interface BallotPageData {
  frame: VotingFrame;
  form: BallotFormData | null;
  /** The viewer has a ballot in this module already. */
  hasBallot: boolean;
  signedIn: boolean;
  loginPath: string;
  codePath: string;
}

export function BallotPage({ page, data }: { page: PageContext; data: BallotPageData }) {
  const { lang } = page;
  return (
    <Frame page={page} frame={data.frame} title={t(lang, 'Vote')}>
      {data.form ? (
        <>
          {data.hasBallot && <p>{t(lang, 'Your ballot counts. You can change it until the voting phase ends; only your last ballot counts.')}</p>}
          {data.form.proposals.length ? <BallotForm page={page} data={data.form} submit={data.hasBallot ? t(lang, 'Change my ballot') : t(lang, 'Cast my ballot')} /> : <p>{t(lang, 'No proposals are on the ballot.')}</p>}
        </>
      ) : data.signedIn ? (
        <Notice>{t(lang, 'Voting is not possible at the moment.')}</Notice>
      ) : (
        <Notice>
          <a href={data.loginPath}>{t(lang, 'Log in to vote.')}</a>
        </Notice>
      )}
      <p>
        <a href={data.codePath}>{t(lang, 'Vote with a vote code')}</a>
      </p>
    </Frame>
  );
}

interface CodePageData {
  frame: VotingFrame;
  action: string;
  open: boolean;
  code: string;
  codeErrors: string[];
  /** Set once the code was found: the ballot to fill in. */
  form: BallotFormData | null;
  /** The ballot was cast. */
  done: boolean;
}

/** The code voter's page: first the code, then the ballot; no account needed. */
export function CodePage({ page, data }: { page: PageContext; data: CodePageData }) {
  const { lang } = page;
  return (
    <Frame page={page} frame={data.frame} title={t(lang, 'Vote with a vote code')}>
      {data.done ? (
        <Notice>{t(lang, 'Thank you. Your ballot has been cast and your code is now spent.')}</Notice>
      ) : !data.open ? (
        <Notice>{t(lang, 'Voting is not possible at the moment.')}</Notice>
      ) : data.form ? (
        <>
          <p>{t(lang, 'Code %(code)s: choose your proposals. The code casts one ballot; it cannot be changed afterwards.', { code: formatVoteCode(data.code) })}</p>
          <BallotForm page={page} data={data.form} submit={t(lang, 'Cast my ballot')} />
        </>
      ) : (
        <form method="post" action={data.action}>
          <CsrfField page={page} />
          <div class={`field${data.codeErrors.length ? ' has-error' : ''}`}>
            <label for="id_code">{t(lang, 'Vote code')}</label>
            <input
              id="id_code"
              name="code"
              value={data.code}
              autocomplete="off"
              maxLength={40}
              required
              aria-invalid={data.codeErrors.length ? 'true' : undefined}
              aria-describedby={data.codeErrors.length ? 'id_code_errors id_code_help' : 'id_code_help'}
            />
            <p class="help" id="id_code_help">
              {t(lang, 'The 16 characters on your voting slip, e.g. ABCD-EFGH-JKLM-NPQR.')}
            </p>
            <FieldErrors id="id_code_errors" errors={data.codeErrors} />
          </div>
          <button type="submit">{t(lang, 'Continue')}</button>
        </form>
      )}
    </Frame>
  );
}

export interface ResultPageData {
  frame: VotingFrame;
  preliminary: boolean;
  totalBudget: number;
  ballots: number;
  rows: RankedProposal[];
}

export function ResultPage({ page, data }: { page: PageContext; data: ResultPageData }) {
  const { lang } = page;
  const funded = data.rows.filter((r) => r.winner).reduce((sum, r) => sum + r.budget, 0);
  return (
    <Frame page={page} frame={data.frame} title={t(lang, 'Result of the vote')}>
      {data.preliminary && <Notice>{t(lang, 'The voting phase is still running: this result is preliminary and visible to moderators only.')}</Notice>}
      <p>
        {tn(lang, '%(n)s ballot was cast.', '%(n)s ballots were cast.', data.ballots, { n: data.ballots })}{' '}
        {t(lang, 'The winners use %(funded)s of the budget of %(total)s.', { funded: euros(lang, funded), total: euros(lang, data.totalBudget) })}
      </p>
      <VoteChart lang={lang} rows={data.rows} id="vote-chart" />
      <ResultTable lang={lang} rows={data.rows} />
    </Frame>
  );
}

/** The printable sheet of vote codes: one slip per code, with where to vote. */
export function CodeSheet({ lang, title, voteUrl, codes }: { lang: Lang; title: string; voteUrl: string; codes: string[] }) {
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <title>{`${t(lang, 'Vote codes')} — ${title}`}</title>
        <style>{'body{font-family:sans-serif}.slip{border:1px dashed #555;padding:1em;margin:0 0 1em;break-inside:avoid}.code{font-family:monospace;font-size:1.5em;letter-spacing:.1em}'}</style>
      </head>
      <body>
        <main>
          <h1>{`${t(lang, 'Vote codes')} — ${title}`}</h1>
          {codes.map((code) => (
            <section class="slip" aria-label={t(lang, 'Vote code')}>
              <p>{t(lang, 'Your vote code for %(title)s:', { title })}</p>
              <p class="code">{formatVoteCode(code)}</p>
              <p>{t(lang, 'Vote at %(url)s. The code casts one ballot.', { url: voteUrl })}</p>
            </section>
          ))}
        </main>
      </body>
    </html>
  );
}
