import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Slug } from '../../http/responses.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { takeRateLimited } from '../../http/throttle.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext, userPageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, fieldList, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { loginRedirectUrl, sendPage } from '../../web/render.js';
import { loadModulePage } from '../../core/modules/queries.js';
import { canViewModule } from '../../core/modules/rules.js';
import { loadModuleContext } from '../../core/projects/context.js';
import { modulePath, projectPath } from '../../core/urls.js';
import { loadBallotProposals, loadBudgetSettings, loadOwnBallot, loadSupportedProposals, loadResult, voteCodeUsable } from './ballot-queries.js';
import { WRONG_CODE_LIMITS, wrongCodeKey, ballotProblems, canSupport, canViewResult, canViewSupports, canVote, canVoteWithCode, SUPPORT_PHASE, VOTING_PHASE, votingIsOver } from './ballot-rules.js';
import { castBallot, castCodeBallot, supportProposal, withdrawSupport } from './ballot-services.js';
import { normaliseVoteCode, voteCodeHash } from './codes.js';
import { BallotPage, ballotProblemText, budgetingPath, proposalPagePath, CodePage, type ProposalChoice, ResultPage, SupportPage, type VotingFrame } from './ballot-views.js';

const ModuleParams = Type.Object({ org: Slug, slug: Slug });
const SupportBody = Type.Object({ csrfmiddlewaretoken: Type.Optional(Type.String()), proposal: Type.String({ pattern: '^\\d{1,9}$' }), action: Type.Union([Type.Literal('support'), Type.Literal('withdraw')]) });

/** Where wrong vote codes are counted: per client address, with the login throttle's numbers. */
const ADDRESS_KEY = (ip: string) => `vote-code:${ip}`;
const TYPED_KEY = (moduleId: number, typed: string) => `vote-code-typed:${moduleId}:${wrongCodeKey(typed)}`;

/**
 * The pages of the support and voting phases (issue 24, part 3): support proposals, the ballot,
 * the code voter's ballot (no login), the result, and the initiator's code downloads.
 */
export async function votingPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  /** 429 (with Retry-After) once the address, or the code as typed, has had its wrong tries in the window (`WRONG_CODE_LIMITS`; a check that counts nothing). */
  const codeTriesLeft = async (ip: string, moduleId: number, typed: string) => {
    await takeRateLimited(app.ctx, ADDRESS_KEY(ip), WRONG_CODE_LIMITS.perAddress - 1, config.loginFailureWindowSeconds, 0);
    await takeRateLimited(app.ctx, TYPED_KEY(moduleId, typed), WRONG_CODE_LIMITS.perCode - 1, config.loginFailureWindowSeconds, 0);
  };
  /** Counts one wrong code, for the address and for the code as typed. */
  const countWrongCode = async (ip: string, moduleId: number, typed: string) => {
    await takeRateLimited(app.ctx, ADDRESS_KEY(ip), WRONG_CODE_LIMITS.perAddress, config.loginFailureWindowSeconds);
    await takeRateLimited(app.ctx, TYPED_KEY(moduleId, typed), WRONG_CODE_LIMITS.perCode, config.loginFailureWindowSeconds);
  };

  /**
   * A module with a support or voting phase that the viewer may see; 404 otherwise (also for what
   * they may not see). The code voter's page is also there for a private project's voters, who
   * hold a code and no account (`code`): its proposals show only once a code was found.
   */
  async function budgetModule(page: PageContext, org: string, slug: string, phase: string, code?: 'code') {
    const module = (await loadModulePage(db, org, slug, null))?.module;
    if (!module || !module.phases.some((p) => p.type === phase)) throw notFound();
    const context = await loadModuleContext(db, module.id, page.user ? { id: page.user.id, isSuperuser: page.user.isSuperuser } : null);
    if (!context || !(canViewModule(context) || (code && canVoteWithCode(context)))) throw notFound();
    const frame: VotingFrame = { orgSlug: org, projectName: module.projectName, projectPath: projectPath(org, module.projectSlug), moduleName: module.name, modulePath: modulePath(org, module.slug) };
    return { module, context, frame };
  }

  const choices = (org: string, rows: { id: number; name: string; budget: number; created: Date; supports: number; supported: boolean }[]): ProposalChoice[] =>
    rows.map((p) => ({ id: p.id, name: p.name, budget: p.budget, supports: p.supports, supported: p.supported, path: proposalPagePath(org, p.created, p.id) }));

  // The support phase.

  app.get('/:org/budgeting/module/:slug/support/', pageRoute({ params: ModuleParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { org, slug } = request.params;
    const { module, context, frame } = await budgetModule(page, org, slug, SUPPORT_PHASE);
    if (!canViewSupports(context)) throw notFound();
    const settings = await loadBudgetSettings(db, module.id);
    const rows = (await loadSupportedProposals(db, module.id, page.user?.id ?? null)).filter((p) => !p.isArchived);
    const data = {
      frame,
      action: budgetingPath(org, slug, 'support'),
      proposals: choices(org, rows),
      canSupport: canSupport(context),
      signedIn: page.user !== null,
      loginPath: loginRedirectUrl(budgetingPath(org, slug, 'support')),
      limit: settings.supportLimit,
      used: rows.filter((p) => p.supported).length,
      threshold: settings.supportThreshold,
    };
    return sendPage(reply, <SupportPage page={page} data={data} />);
  });

  app.post('/:org/budgeting/module/:slug/support/', pageRoute({ params: ModuleParams, body: SupportBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const { org, slug } = request.params;
    const { module, context } = await budgetModule(page, org, slug, SUPPORT_PHASE);
    if (!canSupport(context)) throw permissionDenied();
    const proposalId = Number(request.body.proposal);
    const proposal = (await loadSupportedProposals(db, module.id, null)).find((p) => p.id === proposalId);
    if (!proposal || proposal.isArchived) throw notFound();
    const back = budgetingPath(org, slug, 'support');
    if (request.body.action === 'withdraw') {
      await db.transaction((tx) => withdrawSupport(tx, page.user.id, proposalId));
      return redirectWithMessage(request, reply, back, 'Your support was withdrawn.');
    }
    const settings = await loadBudgetSettings(db, module.id);
    const outcome = await db.transaction((tx) => supportProposal(tx, { userId: page.user.id, moduleId: module.id, proposalId, settings }));
    const message = outcome === 'limit' ? 'You have used all your supports. Withdraw one to support another proposal.' : 'Thank you for your support.';
    return redirectWithMessage(request, reply, back, message);
  });

  // The ballot of signed-in participants.

  async function ballotData(org: string, module: { id: number; phases: { type: string }[] }) {
    const settings = await loadBudgetSettings(db, module.id);
    const proposals = await loadBallotProposals(db, module, settings);
    return { settings, proposals, eligible: new Map(proposals.map((p) => [p.id, { budget: p.budget }])), choices: choices(org, proposals) };
  }

  async function renderBallot(request: FastifyRequest, reply: FastifyReply, page: PageContext, org: string, slug: string, posted?: { chosen: number[]; errors: string[] }) {
    const { module, context, frame } = await budgetModule(page, org, slug, VOTING_PHASE);
    const own = page.user ? await loadOwnBallot(db, module.id, page.user.id) : { exists: false, chosen: [] };
    const open = canVote(context);
    const ballot = open ? await ballotData(org, module) : null;
    const data = {
      frame,
      form: ballot ? { action: budgetingPath(org, slug, 'ballot'), proposals: ballot.choices, chosen: posted?.chosen ?? own.chosen, settings: ballot.settings, errors: posted?.errors ?? [] } : null,
      hasBallot: own.exists,
      signedIn: page.user !== null,
      loginPath: loginRedirectUrl(budgetingPath(org, slug, 'ballot')),
      codePath: budgetingPath(org, slug, 'code'),
    };
    return sendPage(reply, <BallotPage page={page} data={data} />, posted ? 400 : 200);
  }

  app.get('/:org/budgeting/module/:slug/ballot/', pageRoute({ params: ModuleParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    return renderBallot(request, reply, page, request.params.org, request.params.slug);
  });

  /** The posted choices: proposal ids (anything else is not on the ballot). */
  const postedChoices = (body: RepeatedFormBody) => fieldList(body, 'proposal').map((value) => (/^\d{1,9}$/.test(value) ? Number(value) : -1));

  app.post('/:org/budgeting/module/:slug/ballot/', pageRoute({ params: ModuleParams, body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const { org, slug } = request.params;
    const { module, context } = await budgetModule(page, org, slug, VOTING_PHASE);
    if (!canVote(context)) throw permissionDenied();
    const { settings, eligible } = await ballotData(org, module);
    const chosen = postedChoices(request.body);
    const problems = ballotProblems(chosen, eligible, settings);
    if (problems.length) return renderBallot(request, reply, page, org, slug, { chosen, errors: problems.map((p) => ballotProblemText(page.lang, p)) });
    const { changed } = await db.transaction((tx) => castBallot(tx, { moduleId: module.id, userId: page.user.id, chosen }));
    return redirectWithMessage(request, reply, budgetingPath(org, slug, 'ballot'), changed ? 'Your ballot has been changed.' : 'Your ballot has been cast.');
  });

  // The ballot of a vote code (no login).

  app.get('/:org/budgeting/module/:slug/code/', pageRoute({ params: ModuleParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { org, slug } = request.params;
    const { context, frame } = await budgetModule(page, org, slug, VOTING_PHASE, 'code');
    const data = { frame, action: budgetingPath(org, slug, 'code'), open: canVoteWithCode(context), code: '', codeErrors: [], form: null, done: false };
    return sendPage(reply, <CodePage page={page} data={data} />);
  });

  app.post('/:org/budgeting/module/:slug/code/', pageRoute({ params: ModuleParams, body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    const { org, slug } = request.params;
    const { module, context, frame } = await budgetModule(page, org, slug, VOTING_PHASE, 'code');
    const action = budgetingPath(org, slug, 'code');
    const typed = field(request.body, 'code');
    const base = { frame, action, open: canVoteWithCode(context), code: typed, codeErrors: [] as string[], form: null, done: false };
    if (!base.open) return sendPage(reply, <CodePage page={page} data={base} />, 403);
    // Wrong codes are throttled per code as typed and per client address (a polling station's one address may cast many good ones).
    await codeTriesLeft(request.ip, module.id, typed);
    const code = normaliseVoteCode(typed);
    const codeHash = code ? voteCodeHash(config.secretKey, code) : '';
    if (!code || !(await voteCodeUsable(db, module.id, codeHash))) {
      await countWrongCode(request.ip, module.id, typed);
      return sendPage(reply, <CodePage page={page} data={{ ...base, codeErrors: [t(page.lang, 'This code is not valid for this vote, or it has been used already.')] }} />, 400);
    }
    const { settings, eligible, choices: proposals } = await ballotData(org, module);
    const form = { action, proposals, chosen: [] as number[], settings, errors: [] as string[], code };
    if (field(request.body, 'cast') !== '1') return sendPage(reply, <CodePage page={page} data={{ ...base, code, form }} />);
    const chosen = postedChoices(request.body);
    const problems = ballotProblems(chosen, eligible, settings);
    if (problems.length) return sendPage(reply, <CodePage page={page} data={{ ...base, code, form: { ...form, chosen, errors: problems.map((p) => ballotProblemText(page.lang, p)) } }} />, 400);
    const cast = await db.transaction((tx) => castCodeBallot(tx, { moduleId: module.id, codeHash, chosen }));
    if (!cast) return sendPage(reply, <CodePage page={page} data={{ ...base, codeErrors: [t(page.lang, 'This code is not valid for this vote, or it has been used already.')] }} />, 400);
    return sendPage(reply, <CodePage page={page} data={{ ...base, code: '', done: true }} />);
  });

  // The result.

  app.get('/:org/budgeting/module/:slug/result/', pageRoute({ params: ModuleParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { org, slug } = request.params;
    const { module, context, frame } = await budgetModule(page, org, slug, VOTING_PHASE);
    if (!canViewResult(context)) throw page.user ? permissionDenied() : notFound();
    const result = await loadResult(db, module);
    const rows = result.rows.map((r) => ({ ...r, path: proposalPagePath(org, r.created, r.id) }));
    const data = { frame, preliminary: !votingIsOver(context), totalBudget: result.settings.totalBudget ?? 0, ballots: result.ballots, rows };
    return sendPage(reply, <ResultPage page={page} data={data} />);
  });
}
