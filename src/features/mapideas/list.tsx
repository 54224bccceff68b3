import type { MapConfig } from '../../config.js';
import type { ComponentChildren } from 'preact';
import { t } from '../../i18n/index.js';
import type { SQL } from 'drizzle-orm';
import { type IdeaListParams, listState, loadIdeaList } from '../idealike/list.js';
import { loadIdeas, type IdeaRow } from '../idealike/queries.js';
import { IdeaList, type IdeaListData } from '../idealike/views.js';
import type { ModuleContentInput } from '../moduletypes/contract.js';
import type { PageContext } from '../../web/context.js';
import { loadArea, loadPlaces, type PlaceKind } from './queries.js';
import { MAP_SCRIPT, MapBox } from './views.js';
import { markerOf } from './place.js';
import { say } from '../idealike/words.js';

/** The module page's list of a kind with a place: the idea list (filters, orderings, pages) with a map of every filtered item. */
interface PlaceListData {
  list: IdeaListData;
  maps: MapConfig;
  labels: Map<number, string>;
}

/** Loads the list and the map's markers (every item the filters match, not only the page's). `where`: a kind's further condition. */
export async function loadPlaceList(input: ModuleContentInput, kind: PlaceKind, where?: SQL, more?: (ideas: IdeaRow[]) => Promise<Partial<IdeaListData>>): Promise<PlaceListData> {
  const { db, module } = input;
  const query = input.query as IdeaListParams;
  const list = await loadIdeaList(db, { orgSlug: input.orgSlug, path: input.path, module, rules: input.context, userId: input.page.user?.id ?? null, query, where }, kind);
  const state = listState(query, list.rated);
  const all = await loadIdeas(db, { moduleId: module.id, categoryId: state.category ?? undefined, labelId: state.label ?? undefined, search: state.search || undefined, where }, null, kind);
  const places = await loadPlaces(db, kind, all.map((i) => i.id));
  const markers = all.flatMap((idea) => {
    const place = places.get(idea.id);
    return place ? [markerOf(input.orgSlug, kind, idea, place.point)] : [];
  });
  const area = await loadArea(db, module.id);
  const lang = input.page.lang;
  const aside: ComponentChildren = (
    <>
      <MapBox lang={lang} maps={input.config.maps} label={say(lang, kind.words, 'Map of the ideas')} spec={{ area, markers }} />
      <script src={MAP_SCRIPT} defer />
    </>
  );
  const labels = new Map([...places].map(([id, p]) => [id, p.pointLabel]));
  return { list: { ...list, aside, ...(await more?.(list.ideas)) }, maps: input.config.maps, labels };
}

/** The list with the map, each item with its place's label (and what the kind adds). */
export function PlaceList({ page, data, itemExtra }: { page: PageContext; data: PlaceListData; itemExtra?: (idea: IdeaRow) => ComponentChildren }) {
  const { lang } = page;
  const extra = (idea: IdeaRow) => (
    <>
      {data.labels.get(idea.id) ? (
        <p class="place-label">
          <span class="visually-hidden">{t(lang, 'Place')}: </span>
          {data.labels.get(idea.id)}
        </p>
      ) : null}
      {itemExtra?.(idea)}
    </>
  );
  return <IdeaList page={page} data={{ ...data.list, itemExtra: extra }} />;
}
