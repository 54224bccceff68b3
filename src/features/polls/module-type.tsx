import { eq } from 'drizzle-orm';
import { polls } from '../../db/schema/index.js';
import { t } from '../../i18n/index.js';
import { SHARED_COMPONENTS } from '../../core/modules/registry.js';
import { contentPart, type ModuleType } from '../moduletypes/contract.js';
import { ItemThread } from '../threads/items.js';

/**
 * Poll (PO), as far as Allmende has it so far: polls are content that takes comments (from
 * imported data), shown on their module page with their discussion. Not offered in the dashboard
 * until its questions, votes and pages are built.
 */

const pollList = contentPart({
  // The module page's statement brought the polls' ids (PageModule.items): nothing to load.
  load: async (input) => (input.module.items.polls.length ? { polls: input.module.items.polls.map((id) => ({ id })) } : null),
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
};
