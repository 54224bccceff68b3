import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { type SQL, sql } from 'drizzle-orm';
import { compactProjectInsights, countContribution } from '../../src/core/insights/services.js';
import { loadProjectInsights } from '../../src/core/insights/queries.js';
import { basicWorld, daysFromNow, load, tokenHeader } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { budgetModule, proposalId, seedProposals } from '../features/budgeting/world.js';
import { signedIn } from './world.js';
import { postgresSuite } from '../database.js';
import { INSIGHTS_COMPACT_INTERVAL_MS } from '../../src/jobs/background.js';
import { withDatabase } from '../../src/db/admin.js';
import { openPostgres } from '../../src/db/client.js';
import { castBallot as castPollBallot } from '../../src/features/polls/services.js';
import { loadBallotTargets } from '../../src/features/polls/queries.js';
import { checkBallot } from '../../src/features/polls/rules.js';
import { setLike } from '../../src/features/interactiveevents/services.js';
import { castBallot as castBudgetBallot } from '../../src/features/budgeting/ballot-services.js';

const WRITERS = 20;
const POLL_MODULE = 10;
const EVENT = 20;
const BUDGET = 31;
const budgetChoice = [proposalId(BUDGET, 1), proposalId(BUDGET, 2)];

/**
 * basicWorld with 20 writers (who can sign in) and, all in project 1: a phase in which ideas are
 * added, commented on and rated; a running poll (poll 1, question 1 with choices 1 and 2); an
 * Interactive Event with question 1; a participatory budget (PB3) in its voting phase.
 */
function writersWorld() {
  const world = basicWorld();
  const writers = Array.from({ length: WRITERS }, (_, i) => ({ id: 100 + i, username: `writer${i}`, email: `writer${i}@example.org`, password: `writer${i}-password`, language: 'en' as const }));
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(10) };
  world.users = [...(world.users ?? []), ...writers];
  world.modules = [
    ...(world.modules ?? []).map((module) => ({ ...module, phases: [{ type: 'a4_candy_ideas:collect_feedback', ...running }] })),
    { id: POLL_MODULE, slug: 'poll', project: 1, name: 'Poll', description: 'Tell us', blueprint_type: 'PO', phases: [{ type: 'a4polls:voting', name: 'Voting', description: 'Vote', ...running }] },
    { id: EVENT, slug: 'town-hall', project: 1, name: 'Town hall', blueprint_type: 'IE', phases: [{ type: 'a4_candy_interactive_events:issue', name: 'Issue phase', description: 'Ask', ...running }] },
    budgetModule(BUDGET, 'voting', 1, 'voting'),
  ];
  world.ideas = [{ id: 1, module: 1, creator: 5, name: 'First', description: 'x', category: 1 }];
  world.polls = [{ id: 1, module: POLL_MODULE, creator: 2 }];
  world.questions = [{ id: 1, poll: 1, label: 'Which colour?' }];
  world.choices = [
    { id: 1, question: 1, label: 'Red' },
    { id: 2, question: 1, label: 'Blue' },
  ];
  world.affiliations = [{ id: 11, module: EVENT, name: 'Residents' }];
  world.live_questions = [{ id: 1, module: EVENT, text: 'Will the park stay open?', affiliation: 11 }];
  return { world, writers };
}

/** The votes of a ballot for poll 1: the one question, answered with `choice`. */
const pollBallot = (choice: number) => ({ '1': { choices: [choice], other_choice_answer: '', open_answer: '' } });

interface Written {
  what: string;
  status: number;
  expected: number;
  text: string;
}

async function writersApp() {
  const testApp = await createTestApp();
  const { world, writers } = writersWorld();
  await load(testApp.db, world);
  await seedProposals(testApp.db, [BUDGET]);
  const headers = await Promise.all(writers.map((writer) => tokenHeader(testApp.db, writer.id)));
  // Signed in before any write: the writes below are the only ones the lock test sees.
  const browsers = await Promise.all(writers.map((writer) => signedIn(testApp.app, writer.username)));
  const types = (await testApp.request({ method: 'GET', url: '/api/contenttypes/' })).body as { id: number; model: string }[];
  const ideaType = types.find((ct) => ct.model === 'idea')?.id;
  const answer = (what: string, expected: number) => async (sent: Promise<{ status: number; text: string }>): Promise<Written> => {
    const { status, text } = await sent;
    return { what, status, expected, text: status === expected ? '' : text.slice(0, 300) };
  };
  /**
   * Each writer, all at once: adds an idea, comments on the first idea and rates it, votes in the
   * poll (app API, token), likes the live question (its browser session) and casts a budget ballot
   * (the page's form, signed in).
   */
  const write = () =>
    Promise.all(
      writers.flatMap((_, w) => {
        const auth = headers[w];
        const browser = browsers[w];
        return [
          answer('idea', 201)(testApp.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: auth, payload: { name: `Idea ${w}`, description: 'x', category: 1 } })),
          answer('comment', 201)(testApp.request({ method: 'POST', url: `/api/contenttypes/${ideaType}/objects/1/comments/`, headers: auth, payload: { comment: `Comment ${w}` } })),
          answer('rating', 201)(testApp.request({ method: 'POST', url: `/api/contenttypes/${ideaType}/objects/1/ratings/`, headers: auth, payload: { value: 1 } })),
          answer('poll vote', 201)(testApp.request({ method: 'POST', url: '/api/polls/1/vote/', headers: auth, payload: { votes: pollBallot(1 + (w % 2)) } })),
          answer('like', 201)(browser.postJson('/api/livequestions/1/likes/', { value: true })),
          answer('budget ballot', 302)(browser.post('/org/budgeting/module/voting/ballot/', { proposal: budgetChoice.map(String) })),
        ];
      }),
    );
  return { ...testApp, write };
}

/** Every write answered as it should (201, the ballot form its redirect). */
function assertWritten(answers: Written[]) {
  assert.equal(answers.length, 6 * WRITERS);
  assert.deepEqual(answers.filter((a) => a.status !== a.expected), []);
}

const count = async (db: TestApp['db'], query: SQL) => ((await db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]?.n;

/**
 * After the writes: each vote, like and ballot is stored once, per writer; the poll's and the
 * event's own figures count every writer. `holder`: the further voter of the lock test (user 1, choice 1).
 */
async function assertStoredOnce(t: TestApp, holder = 0) {
  const { db } = t;
  const voters = WRITERS + holder;
  assert.equal(await count(db, sql`select count(distinct creator_id)::integer as n from poll_votes where creator_id is not null having count(*) = count(distinct creator_id)`), voters, 'one poll vote per voter');
  const poll = (await t.request({ method: 'GET', url: '/api/polls/1/' })).body as { total_participants: number; questions: { choices: { count: number }[] }[] };
  assert.equal(poll.total_participants, voters);
  assert.deepEqual(poll.questions[0].choices.map((c) => c.count), [WRITERS / 2 + holder, WRITERS / 2]);
  assert.equal(await count(db, sql`select count(distinct session)::integer as n from live_question_likes where live_question_id = 1 having count(*) = count(distinct session)`), voters, 'one like per browser session');
  const questions = (await t.request({ method: 'GET', url: `/api/modules/${EVENT}/interactiveevents/livequestions/` })).body as { id: number; likes: { count: number } }[];
  assert.equal(questions.find((q) => q.id === 1)?.likes.count, voters);
  assert.equal(await count(db, sql`select count(distinct user_id)::integer as n from budget_ballots where module_id = ${BUDGET} having count(*) = count(distinct user_id)`), voters, 'one budget ballot per voter');
  assert.equal(await count(db, sql`select count(*)::integer as n from budget_ballot_choices c join budget_ballots b on b.id = c.ballot_id where b.module_id = ${BUDGET}`), budgetChoice.length * voters);
}

test('statistics: 20 concurrent writers of one project are each counted once, before and after the rows are merged', async () => {
  const t = await writersApp();
  const { db, write } = t;
  const answers = await write();
  assertWritten(answers);
  // Poll ballots are the statistics' votes; likes and budget ballots are not counted there (§B17).
  const expected = { ideas: 1 + WRITERS, comments: WRITERS, ratings: WRITERS, votes: WRITERS, participants: 1 + WRITERS };
  const before = await loadProjectInsights(db, 1);
  assert.deepEqual(before.totals, expected);
  await db.transaction((tx) => compactProjectInsights(tx));
  const merged = await loadProjectInsights(db, 1);
  assert.deepEqual(merged, before, 'merging changes no figure');
  const rows = (await db.execute(sql`select count(*)::integer as n from project_insight_days where project_id = 1 group by day`)) as unknown as { rows: { n: number }[] };
  assert.ok(rows.rows.every((row) => row.n === 1), 'one row per day after merging');
  await assertStoredOnce(t);
});

/**
 * A writer holds its transaction open after writing through the services themselves: it has counted
 * an idea for the project today, cast a poll ballot, liked the live question and cast a budget
 * ballot (as user 1, with its own session), so it holds every lock those writes take. 20 writers of
 * the same project meanwhile add ideas, comments and ratings, vote in the poll, like the question
 * and cast budget ballots. They finish without waiting for it (a shared row that each write locked,
 * such as one day row or the poll's row, would make all of them wait until it commits), and no lock
 * wait for the holder is seen while they run (pg_locks and pg_blocking_pids sampled). PostgreSQL only:
 * PGlite runs one statement at a time.
 */
if (postgresSuite) test('statistics on PostgreSQL: 20 concurrent writers of one project never wait on a shared row', async () => {
  const t = await writersApp();
  const { db, write } = t;
  const [named] = ((await db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }).rows;
  assert.ok(named && process.env.TEST_DATABASE_URL);
  const url = withDatabase(process.env.TEST_DATABASE_URL, named.name);
  const holder = openPostgres(url, { max: 1 });
  const sampler = new pg.Client({ connectionString: url });
  await sampler.connect();
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  try {
    let held = () => {};
    const holding = new Promise<void>((resolve) => (held = resolve));
    let holderPid = 0;
    const transaction = holder.db.transaction(async (tx) => {
      holderPid = Number(((await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] }).rows[0].pid);
      await countContribution(tx, 1, 1, 'ideas', new Date());
      const targets = await loadBallotTargets(tx, [1], [1]);
      await castPollBallot(tx, { pollId: 1, voter: { userId: 1 }, votes: checkBallot(1, pollBallot(1), targets.questions, targets.choices), projectId: 1 });
      await setLike(tx, EVENT, 1, 'holder-session', true);
      await castBudgetBallot(tx, { moduleId: BUDGET, userId: 1, chosen: budgetChoice });
      held();
      await released;
    });
    await Promise.race([holding, transaction]);

    const waits: unknown[] = [];
    let done = false;
    const writing = write().finally(() => {
      done = true;
    });
    // A writer's own requests may wait a moment for each other (its idea and its comment both make
    // its follow); what must never happen is a wait for another writer's transaction: the holder's.
    while (!done) {
      const { rows } = await sampler.query(
        `select l.locktype, l.relation::regclass::text as relation, a.wait_event_type, a.wait_event, a.query
         from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where not l.granted and a.datname = current_database() and $1 = any(pg_blocking_pids(a.pid))`,
        [holderPid],
      );
      waits.push(...rows);
      if (rows.length > 0) break;
    }
    release();
    await transaction;
    const answers = await writing;
    assert.deepEqual(waits, [], 'no writer waited on a lock the holder held');
    assertWritten(answers);
    const insights = await loadProjectInsights(db, 1);
    assert.deepEqual(insights.totals, { ideas: 2 + WRITERS, comments: WRITERS, ratings: WRITERS, votes: 1 + WRITERS, participants: 2 + WRITERS });
    await assertStoredOnce(t, 1);
    await countContribution(db, 1, 1, 'comments', new Date());
    assert.equal((await loadProjectInsights(db, 1)).totals.participants, 2 + WRITERS, 'a known participant is not counted again');
  } finally {
    release();
    await Promise.all([holder.close(), sampler.end()]);
  }
});

test('the background work merges each project day\'s statistics rows every 10 minutes', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { app, db } = await createTestApp();
  await load(db, basicWorld());
  const day = "'2026-03-01'";
  await db.execute(sql.raw(`insert into project_insight_days (project_id, day, ideas, comments, participants) values (1, ${day}, 1, 0, 1), (1, ${day}, 0, 1, 0), (1, ${day}, 0, 1, 1)`));
  const rows = async () => ((await db.execute(sql.raw(`select ideas, comments, ratings, participants from project_insight_days where day = ${day}`))) as unknown as { rows: unknown[] }).rows;
  t.mock.timers.tick(INSIGHTS_COMPACT_INTERVAL_MS - 1);
  assert.equal((await rows()).length, 3, 'nothing merged before the interval is up');
  t.mock.timers.tick(1);
  // Closing the app waits for a run that is going on.
  await app.close();
  assert.deepEqual(await rows(), [{ ideas: 1, comments: 2, ratings: 0, participants: 2 }]);
});
