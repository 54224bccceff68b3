import type { SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import type { DbOrTx } from '../../db/client.js';
import { checkPageInRange, PageParam, pageNumber } from '../../http/pagination.js';
import { guestRedirectUrl, loginRedirectUrl } from '../../web/render.js';
import { somePhaseAllows } from '../../core/modules/phases.js';
import type { PageModule } from '../../core/modules/queries.js';
import { asSignedInUser, mayBecomeGuest } from '../../core/projects/rules.js';
import { IDEA_ORDERINGS, type IdeaOrdering, loadIdeaPage } from './queries.js';
import { canAddIdea, type IdeaRuleContext } from './rules.js';
import type { IdeaKind } from './kinds.js';
import type { IdeaListData, IdeaListState } from './views.js';
import { IDEA_SEARCH_MAX_LENGTH } from './rules.js';

/** Ideas a list page shows (§A8.4). */
const IDEA_PAGE_SIZE = 15;

const OptionalId = Type.Optional(Type.String({ maxLength: 10, pattern: '^\\d{0,9}$' }));


/** The list's query parameters (an empty value means "all"). */
export const IdeaListQuery = Type.Object({
  category: OptionalId,
  label: OptionalId,
  answer: OptionalId,
  ordering: Type.Optional(Type.Union([Type.Literal(''), ...IDEA_ORDERINGS.map((o) => Type.Literal(o))])),
  search: Type.Optional(Type.String({ maxLength: IDEA_SEARCH_MAX_LENGTH })),
  page: PageParam,
  comment: Type.Optional(Type.String({ maxLength: 20 })),
});

export interface IdeaListParams {
  category?: string;
  label?: string;
  answer?: string;
  ordering?: string;
  search?: string;
  page?: string;
}

const idOrNull = (value: string | undefined) => (value ? Number(value) : null);

/** The list's state from its address; "most popular" only where the module rates ideas (§A8.3), else the default order. */
export function listState(query: IdeaListParams, rated: boolean): IdeaListState {
  // The module page's `ordering` also allows the topic list's values (site/module/pages.tsx): the idea list keeps to its own.
  const ordering: IdeaOrdering = IDEA_ORDERINGS.find((o) => o === query.ordering) ?? '-created';
  return {
    category: idOrNull(query.category),
    label: idOrNull(query.label),
    answer: idOrNull(query.answer),
    ordering: ordering === '-positive_rating_count' && !rated ? '-created' : ordering,
    search: (query.search ?? '').trim(),
    page: pageNumber(query.page),
  };
}

/** Whether some phase of the module lets ideas be rated (the list then shows rating counts). */
export const moduleRatesIdeas = (module: { phases: { type: string }[] }, kind: IdeaKind['kind']) =>
  somePhaseAllows(module.phases, 'rate', kind);

/** The create page of a module's items, under their kind's segment. */
const ideaCreatePath = (orgSlug: string, moduleSlug: string, segment: string) => `/${orgSlug}/${segment}/create/module/${moduleSlug}/`;

/** One page of a module's idea list for a viewer: filtered, ordered, counted; 404 past the last page. */
export async function loadIdeaList(
  db: DbOrTx,
  input: { orgSlug: string; path: string; module: PageModule; rules: IdeaRuleContext; userId: number | null; query: IdeaListParams; where?: SQL },
  kind: IdeaKind,
): Promise<IdeaListData> {
  const { module, rules } = input;
  const rated = moduleRatesIdeas(module, kind.kind);
  const state = listState(input.query, rated);
  const filter = {
    moduleId: module.id,
    categoryId: state.category ?? undefined,
    labelId: state.label ?? undefined,
    choiceId: state.answer ?? undefined,
    search: state.search || undefined,
    where: input.where,
  };
  const { count, ideas, customFields } = await loadIdeaPage(db, { ...filter, ordering: state.ordering, limit: IDEA_PAGE_SIZE, offset: (state.page - 1) * IDEA_PAGE_SIZE }, input.userId, kind);
  checkPageInRange(state.page, IDEA_PAGE_SIZE, count);
  const pages = Math.max(1, Math.ceil(count / IDEA_PAGE_SIZE));
  const create = ideaCreatePath(input.orgSlug, module.slug, kind.segment);
  const submit = canAddIdea(rules, kind.kind)
    ? { href: create, login: false }
    : !rules.project.user && canAddIdea({ ...rules, project: asSignedInUser(rules.project) }, kind.kind)
      ? { href: loginRedirectUrl(create), login: true, guest: mayBecomeGuest(rules.project) ? guestRedirectUrl(create) : undefined }
      : null;
  return { orgSlug: input.orgSlug, segment: kind.segment, kind: kind.kind, path: input.path, ideas, count, pages, state, categories: module.categories, labels: module.labels, aliases: module.aliases, customFields, rated, submit, words: kind.words };
}
