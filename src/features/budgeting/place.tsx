import type { MapConfig } from '../../config.js';
import type { FieldErrors } from '../../http/errors.js';
import { field } from '../../web/forms.js';
import { proposals } from './schema.js';
import type { IdeaPageHooks } from '../idealike/pages.js';
import { placeHooks } from '../mapideas/place.js';
import { loadProposalFacts, PROPOSAL_KIND } from './queries.js';
import { parseBudget } from './proposal-rules.js';
import { setArchived, updateBudget } from './proposal-services.js';
import { ArchivedField, BudgetField, BudgetView } from './views.js';

/** What proposals add to the idea pages: the place (map ideas'), the budget, and the archive box of the moderation. */
export const proposalHooks = (maps: MapConfig): IdeaPageHooks =>
  placeHooks(PROPOSAL_KIND, maps, {
    stored: async (db, id): Promise<Record<string, string>> => {
      const facts = (await loadProposalFacts(db, [id])).get(id);
      return facts ? { budget: String(facts.budget) } : {};
    },
    check: async (_db, _moduleId, body) => {
      const value = field(body, 'budget');
      const parsed = parseBudget(value);
      const errors: FieldErrors = 'error' in parsed ? { budget: [parsed.error] } : {};
      return { values: { budget: value }, errors, extra: 'error' in parsed ? {} : { budget: parsed.budget } };
    },
    update: async (tx, id, extra) => {
      if (typeof extra.budget === 'number') await updateBudget(tx, id, extra.budget);
    },
    Fields: ({ page, values, errors }) => <BudgetField lang={page.lang} value={values.budget ?? ''} errors={errors.budget} />,
    detailFields: { budget: proposals.budget, isArchived: proposals.isArchived },
    detail: (page, _idea, _orgSlug, facts) => {
      const { budget, isArchived } = facts as { budget: number; isArchived: boolean };
      return <BudgetView lang={page.lang} budget={budget} archived={isArchived} />;
    },
    moderation: {
      values: async (db, id) => ({ is_archived: (await loadProposalFacts(db, [id])).get(id)?.isArchived ? 'on' : '' }),
      read: (body) => ({ is_archived: field(body, 'is_archived') === 'on' ? 'on' : '' }),
      save: (tx, id, values) => setArchived(tx, id, values.is_archived === 'on'),
      Fields: ({ page, values }) => <ArchivedField lang={page.lang} checked={values.is_archived === 'on'} />,
    },
  });
