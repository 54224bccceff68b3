import { asc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { modules, polls, users } from '../../db/schema/index.js';
import { t } from '../../i18n/index.js';
import { SHARED_COMPONENTS } from '../../core/modules/registry.js';
import { contentPart, type ModuleType } from '../moduletypes/contract.js';
import { FixtureId, fixtureKind, requireRow, strictRecord } from '../moduletypes/fixtures.js';
import { ItemThread } from '../threads/items.js';

/**
 * Poll (PO), as far as Allmende has it so far: polls are content that takes comments (from
 * imported data), shown on their module page with their discussion. Not offered in the dashboard
 * until its questions, votes and pages are built.
 */

const pollList = contentPart({
  load: async (input) => {
    const rows = await input.db.select({ id: polls.id }).from(polls).where(eq(polls.moduleId, input.module.id)).orderBy(asc(polls.id));
    if (!rows.length) return null;
    return { polls: rows };
  },
  threads: (data) => data.polls.map((p) => ({ type: 'poll' as const, id: p.id })),
  View: ({ page, data, threads }) => (
    <section aria-labelledby="polls-heading">
      <h2 id="polls-heading">{t(page.lang, 'Polls')}</h2>
      {data.polls.map((poll) => (
        <article id={`poll-${poll.id}`} aria-labelledby={`poll-${poll.id}-heading`}>
          <h3 id={`poll-${poll.id}-heading`}>{t(page.lang, 'Poll %(id)s', { id: poll.id })}</h3>
          <ItemThread page={page} threads={threads} object={{ type: 'poll', id: poll.id }} />
        </article>
      ))}
    </section>
  ),
});

const pollFixtures = fixtureKind({
  name: 'polls',
  record: Type.Object({ id: FixtureId, module: FixtureId, creator: FixtureId }, strictRecord),
  tables: ['polls'],
  load: async ({ tx }, records) => {
    for (const [i, p] of records.entries()) {
      await requireRow(tx, modules, p.module, `polls[${i}].module`, 'module');
      await requireRow(tx, users, p.creator, `polls[${i}].creator`, 'user');
      await tx.insert(polls).values({ id: p.id, moduleId: p.module, creatorId: p.creator });
    }
  },
});

export const poll: ModuleType = {
  blueprintType: 'PO',
  key: 'poll',
  title: { en: 'Poll', de: 'Umfrage' },
  description: { en: 'Participants answer the questions of a poll and discuss it.', de: 'Teilnehmende beantworten die Fragen einer Umfrage und diskutieren sie.' },
  offered: false,
  phases: [{ type: 'a4polls:voting', content: 'poll', features: ['vote', 'comment'], name: { en: 'Voting phase', de: 'Abstimmungsphase' }, description: { en: '', de: '' } }],
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases],
  contentTypes: [
    {
      kind: 'poll',
      commentable: true,
      target: async (db, id) => {
        const [row] = await db.select({ moduleId: polls.moduleId, creatorId: polls.creatorId }).from(polls).where(eq(polls.id, id));
        return row ?? null;
      },
    },
  ],
  appProjectField: 'single_poll_module',
  content: pollList,
  fixtures: [pollFixtures],
};
