import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { phases as phaseTable } from '../../db/schema/index.js';
import { type Lang, t, tn } from '../../i18n/index.js';
import { ideaReferenceNumber } from '../../core/urls.js';
import { phaseIsPast } from '../../core/modules/phases.js';
import type { ModuleComponent, PhaseType } from '../../core/modules/registry.js';
import { Input, Radios } from '../../web/controls.js';
import { contentPart, type DashboardComponentForm, exportFile, type ModuleExportFile, type Sheet } from '../moduletypes/contract.js';
import { countVoteCodes, loadBudgetSettings, loadBudgetSettingsMany, loadResult } from './ballot-queries.js';
import { type BudgetSettings, canSupport, canViewResult, canVote, canVoteWithCode, DEFAULT_SETTINGS, readCodeCount, readSupportSettings, readVotingSettings, SUPPORT_PHASE, VOTING_PHASE } from './ballot-rules.js';
import { generateVoteCodes, saveBudgetSettings } from './ballot-services.js';
import { budgetingPath, CodeSheet } from './ballot-views.js';
import { formatVoteCode } from './codes.js';
import { renderPage } from '../../web/render.js';

/**
 * The support and voting phases as a module type declares them (issue 24, part 3): the two phase
 * types, the dashboard components "Support", "Voting" and "Vote codes" with their forms and publish
 * checks, the module page's part with the links to the support, ballot and result pages, and the
 * result export. The participatory budgeting types with these phases put them together
 * (voting-module-types.tsx).
 */

export const SUPPORT_PHASE_TYPE: PhaseType = {
  type: SUPPORT_PHASE,
  content: 'proposal',
  features: ['support'],
  name: { en: 'Support phase', de: 'Unterstützungsphase' },
  description: { en: 'Support the proposals that should go on to the vote.', de: 'Unterstützen Sie die Vorschläge, die zur Abstimmung kommen sollen.' },
};

export const VOTING_PHASE_TYPE: PhaseType = {
  type: VOTING_PHASE,
  content: 'proposal',
  features: ['vote'],
  name: { en: 'Voting phase', de: 'Abstimmungsphase' },
  description: { en: 'Choose the proposals that should be funded from the budget.', de: 'Wählen Sie die Vorschläge, die aus dem Budget finanziert werden sollen.' },
};

// The publish checks read these facts.

interface VotingFacts {
  settings: BudgetSettings;
  hasSupportPhase: boolean;
  hasVotingPhase: boolean;
}

/** The facts of the support and voting components for some modules: two statements. */
export async function votingFacts(db: DbOrTx, moduleIds: number[]): Promise<Map<number, Record<string, unknown>>> {
  const settings = await loadBudgetSettingsMany(db, moduleIds);
  const rows = moduleIds.length
    ? await db.select({ moduleId: phaseTable.moduleId, type: phaseTable.type }).from(phaseTable).where(and(inArray(phaseTable.moduleId, moduleIds), inArray(phaseTable.type, [SUPPORT_PHASE, VOTING_PHASE])))
    : [];
  return new Map(
    moduleIds.map((id) => {
      const facts: VotingFacts = {
        settings: settings.get(id) ?? DEFAULT_SETTINGS,
        hasSupportPhase: rows.some((r) => r.moduleId === id && r.type === SUPPORT_PHASE),
        hasVotingPhase: rows.some((r) => r.moduleId === id && r.type === VOTING_PHASE),
      };
      return [id, { voting: facts }];
    }),
  );
}

const factsOf = (facts: Record<string, unknown> | undefined) => facts?.voting as VotingFacts | undefined;

export const VOTING_COMPONENTS: ModuleComponent[] = [
  {
    key: 'support_settings',
    label: { en: 'Support', de: 'Unterstützung' },
    missing: (module) => {
      const facts = factsOf(module.facts);
      return facts?.hasSupportPhase && facts.settings.supportLimit === null ? [{ field: { en: 'Supports per participant', de: 'Unterstützungen pro Person' } }] : [];
    },
  },
  {
    key: 'voting_settings',
    label: { en: 'Voting', de: 'Abstimmung' },
    missing: (module) => {
      const facts = factsOf(module.facts);
      return facts?.hasVotingPhase && facts.settings.totalBudget === null ? [{ field: { en: 'Total budget', de: 'Gesamtbudget' } }] : [];
    },
  },
  { key: 'vote_codes', label: { en: 'Vote codes', de: 'Abstimmungscodes' } },
];

// The dashboard forms.

const asValues = (record: Record<string, string | number | null>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v === null ? '' : String(v)]));

/** Whether a phase of the type has begun in the module (its rules then stay as they are). */
async function phaseBegun(db: DbOrTx, moduleId: number, type: string): Promise<boolean> {
  const rows = await db.select({ startDate: phaseTable.startDate, endDate: phaseTable.endDate }).from(phaseTable).where(and(eq(phaseTable.moduleId, moduleId), eq(phaseTable.type, type)));
  const now = new Date();
  return rows.some((p) => (p.startDate !== null && p.startDate <= now) || phaseIsPast({ ...p, id: 0, type, weight: 0 }, now));
}

const LOCKED = 'The rules cannot be changed any more: the phase has begun.';

const supportForm: DashboardComponentForm = {
  values: async (db, module) => {
    const s = await loadBudgetSettings(db, module.id);
    return asValues({ support_limit: s.supportLimit, support_threshold: s.supportThreshold });
  },
  Fields: ({ page, values, errors }) => (
    <>
      <Input name="support_limit" type="number" label={t(page.lang, 'Supports per participant')} value={values.support_limit} errors={errors.support_limit} required help={t(page.lang, 'How many proposals each participant may support.')} />
      <Input name="support_threshold" type="number" label={t(page.lang, 'Supports needed for the vote')} value={values.support_threshold} errors={errors.support_threshold} help={t(page.lang, 'Proposals with at least this many supports go on to the vote (0: all of them).')} />
    </>
  ),
  save: async (db, module, body, lang) => {
    const { parsed, errors } = readSupportSettings(body, lang);
    const values = { support_limit: body.support_limit ?? '', support_threshold: body.support_threshold ?? '' };
    if (!module.isDraft && (await phaseBegun(db, module.id, SUPPORT_PHASE))) return { values, errors: { support_limit: [t(lang, LOCKED)] } };
    if (Object.keys(errors).length) return { values, errors };
    await db.transaction((tx) => saveBudgetSettings(tx, module.id, parsed));
    return { values, errors };
  },
};

const votingForm: DashboardComponentForm = {
  values: async (db, module) => {
    const s = await loadBudgetSettings(db, module.id);
    return asValues({ total_budget: s.totalBudget, rule: s.rule, min_percent: s.minPercent, min_proposals: s.minProposals, max_proposals: s.maxProposals });
  },
  Fields: ({ page, values, errors }) => {
    const { lang } = page;
    return (
      <>
        <Input name="total_budget" type="number" label={t(lang, 'Total budget (euros)')} value={values.total_budget} errors={errors.total_budget} required />
        <Radios
          name="rule"
          label={t(lang, 'Rule of the ballot')}
          value={values.rule}
          errors={errors.rule}
          choices={[
            { value: 'percent', label: t(lang, 'Spend at least a share of the budget (and never more than the budget)') },
            { value: 'count', label: t(lang, 'Choose between a minimum and a maximum number of proposals') },
          ]}
        />
        <Input name="min_percent" type="number" label={t(lang, 'Minimum share of the budget (%)')} value={values.min_percent} errors={errors.min_percent} />
        <Input name="min_proposals" type="number" label={t(lang, 'Minimum number of proposals')} value={values.min_proposals} errors={errors.min_proposals} />
        <Input name="max_proposals" type="number" label={t(lang, 'Maximum number of proposals')} value={values.max_proposals} errors={errors.max_proposals} />
      </>
    );
  },
  save: async (db, module, body, lang) => {
    const { parsed, errors } = readVotingSettings(body, lang);
    const values = { total_budget: body.total_budget ?? '', rule: body.rule ?? '', min_percent: body.min_percent ?? '', min_proposals: body.min_proposals ?? '', max_proposals: body.max_proposals ?? '' };
    if (!module.isDraft && (await phaseBegun(db, module.id, VOTING_PHASE))) return { values, errors: { total_budget: [t(lang, LOCKED)] } };
    if (Object.keys(errors).length) return { values, errors };
    await db.transaction((tx) => saveBudgetSettings(tx, module.id, parsed));
    return { values, errors };
  },
};

/**
 * "Vote codes": makes new codes and hands them over in the answer, as a CSV file or the printable
 * sheet. Only their keyed hashes are stored (issue 36.9), so this answer is the only copy.
 */
const codesForm: DashboardComponentForm = {
  values: async (db, module) => {
    const { total, used } = await countVoteCodes(db, module.id);
    return { count: '', format: 'csv', total: String(total), used: String(used) };
  },
  Fields: ({ page, module, values, errors }) => {
    const { lang } = page;
    const formats = [
      { value: 'csv', label: t(lang, 'Download as a CSV file') },
      { value: 'html', label: t(lang, 'Show the printable sheet') },
    ];
    return (
      <>
        <p id="vote-code-summary">{tn(lang, '%(total)s code, %(used)s of it used.', '%(total)s codes, %(used)s of them used.', Number(values.total ?? '0'), { total: values.total ?? '0', used: values.used ?? '0' })}</p>
        <p>{t(lang, 'Each code casts one ballot in the voting phase of %(module)s, without an account.', { module: module.name })}</p>
        <p id="vote-code-once">{t(lang, 'New codes are shown only once, when they are made: keep the file or print the sheet. Allmende stores no readable copy; lost codes cannot be shown again, make new ones.')}</p>
        <Input name="count" type="number" label={t(lang, 'Number of new codes')} value={values.count} errors={errors.count} required />
        <Radios name="format" label={t(lang, 'Hand over the new codes')} choices={formats} value={values.format ?? 'csv'} errors={errors.format} />
      </>
    );
  },
  save: async (db, module, body, lang, _userId, site) => {
    const { count, format, errors } = readCodeCount(body, lang);
    const counts = await countVoteCodes(db, module.id);
    const values = { count: body.count ?? '', format: body.format ?? 'csv', total: String(counts.total), used: String(counts.used) };
    if (count === null) return { values, errors };
    const codes = await db.transaction((tx) => generateVoteCodes(tx, module.id, count, site.secretKey));
    const file = format === 'csv' ? voteCodesCsv(lang, codes) : renderPage(<CodeSheet lang={lang} title={module.name} voteUrl={`${site.origin}${budgetingPath(site.orgSlug, module.slug, 'code')}`} codes={codes} />);
    return {
      values: { ...values, count: '' },
      errors: {},
      file: { filename: `vote-codes-${module.slug}.${format}`, contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'text/html; charset=utf-8', body: file, attachment: format === 'csv' },
    };
  },
};

/** New codes as a CSV file: a heading, then one printed code a line. */
const voteCodesCsv = (lang: Lang, codes: string[]) => `${t(lang, 'Vote code')}\r\n${codes.map((c) => `${formatVoteCode(c)}\r\n`).join('')}`;

export const VOTING_FORMS: Record<string, DashboardComponentForm> = { support_settings: supportForm, voting_settings: votingForm, vote_codes: codesForm };

// The module page's part.

/** The module page's box of a module with a support or voting phase: what can be done now, and where. */
export const votingPart = contentPart({
  load: async (input) => {
    const { module, context, orgSlug } = input;
    const hasSupport = module.phases.some((p) => p.type === SUPPORT_PHASE);
    const hasVoting = module.phases.some((p) => p.type === VOTING_PHASE);
    if (!hasSupport && !hasVoting) return null;
    return {
      supportPath: hasSupport ? budgetingPath(orgSlug, module.slug, 'support') : null,
      supportOpen: canSupport(context),
      ballotPath: hasVoting ? budgetingPath(orgSlug, module.slug, 'ballot') : null,
      votingOpen: canVote(context) || canVoteWithCode(context),
      codePath: budgetingPath(orgSlug, module.slug, 'code'),
      resultPath: hasVoting && canViewResult(context) ? budgetingPath(orgSlug, module.slug, 'result') : null,
    };
  },
  View: ({ page, data }) => {
    const { lang } = page;
    return (
      <section class="budget-phases" aria-labelledby="budget-phases-heading">
        <h2 id="budget-phases-heading">{t(lang, 'Support and vote')}</h2>
        <ul>
          {data.supportPath && (
            <li>
              <a href={data.supportPath}>{data.supportOpen ? t(lang, 'Support proposals now') : t(lang, 'Supports of the proposals')}</a>
            </li>
          )}
          {data.ballotPath && (
            <li>
              <a href={data.ballotPath}>{data.votingOpen ? t(lang, 'Vote now') : t(lang, 'The ballot')}</a>
            </li>
          )}
          {data.ballotPath && data.votingOpen && (
            <li>
              <a href={data.codePath}>{t(lang, 'Vote with a vote code')}</a>
            </li>
          )}
          {data.resultPath && (
            <li>
              <a href={data.resultPath}>{t(lang, 'Result of the vote')}</a>
            </li>
          )}
        </ul>
      </section>
    );
  },
});

// The result export.

interface ResultExportRow {
  rank: number;
  id: number;
  created: Date;
  name: string;
  budget: number;
  votes: number;
  winner: boolean;
}

const RESULT_SHEET: Sheet<ResultExportRow> = {
  title: 'Result',
  columns: ['Rank', 'Reference No.', 'Title', 'Budget', 'Votes', 'Winner'],
  cells: (row, c) => [row.rank, ideaReferenceNumber(row.created, row.id), row.name, row.budget, row.votes, t(c.lang, row.winner ? 'yes' : 'no')],
};

/** The result as the result page ranks it (one batch: a module has hundreds of proposals, not millions). */
async function* resultBatches(db: DbOrTx, moduleId: number): AsyncIterable<ResultExportRow[]> {
  const phaseRows = await db.select({ type: phaseTable.type }).from(phaseTable).where(eq(phaseTable.moduleId, moduleId));
  yield (await loadResult(db, { id: moduleId, phases: phaseRows })).rows;
}

export const RESULT_EXPORT: ModuleExportFile = exportFile({ name: 'result', heading: { en: 'Result of the vote', de: 'Ergebnis der Abstimmung' }, sheet: RESULT_SHEET, batches: resultBatches });
