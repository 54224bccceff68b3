import type { MapConfig } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import { type AreaFeatureCollection, modules } from '../../db/schema/index.js';
import { type PointFeature } from './schema.js';
import type { FieldErrors } from '../../http/errors.js';
import { ideaPath } from '../../core/urls.js';
import { field, type RepeatedFormBody } from '../../web/forms.js';
import type { IdeaPageHooks } from '../idealike/pages.js';
import type { IdeaRow } from '../idealike/queries.js';
import { loadArea, loadPlaces, type Place, type PlaceKind } from './queries.js';
import { parsePoint, pointError, pointFromFields } from './rules.js';
import { updatePlace } from './services.js';
import { MAP_SCRIPT, type MapMarker, PlaceFields, PlaceView } from './views.js';

/** The longest place label (adhocracy+'s). */
const POINT_LABEL_MAX = 255;

const fieldsOf = (place: Place): Record<string, string> => ({
  lat: String(place.point.geometry.coordinates[1]),
  lng: String(place.point.geometry.coordinates[0]),
  point_label: place.pointLabel,
});

/** A marker of an item: its point, name and page. */
export const markerOf = (orgSlug: string, kind: PlaceKind, idea: IdeaRow, point: PointFeature): MapMarker => ({
  lng: point.geometry.coordinates[0],
  lat: point.geometry.coordinates[1],
  name: idea.name,
  url: ideaPath(orgSlug, idea.created, idea.id, kind.segment),
});

/**
 * Reads a form's place: the `lat`/`lng` fields (the map fills them), or a GeoJSON `point` field; the
 * point must lie inside the module's area (checked here, on the server, always).
 */
function readPlace(body: RepeatedFormBody, area: AreaFeatureCollection | null): { values: Record<string, string>; errors: FieldErrors; place: { point: PointFeature; pointLabel: string } | null } {
  const values = { lat: field(body, 'lat'), lng: field(body, 'lng'), point_label: field(body, 'point_label') };
  const errors: FieldErrors = {};
  const geojson = field(body, 'point');
  let parsed: ReturnType<typeof parsePoint>;
  if (geojson && !values.lat && !values.lng) {
    try {
      parsed = parsePoint(JSON.parse(geojson));
    } catch {
      parsed = parsePoint(geojson);
    }
  } else parsed = pointFromFields(values.lat, values.lng);
  const checked = 'error' in parsed ? { point: null, error: parsed.error } : pointError(parsed.point, area);
  if (checked.error) errors.point = [checked.error];
  if (values.point_label.length > POINT_LABEL_MAX) errors.point_label = [`Ensure this field has no more than ${POINT_LABEL_MAX} characters.`];
  return { values, errors, place: checked.point && !errors.point_label ? { point: checked.point, pointLabel: values.point_label } : null };
}

/** What a kind with a place adds to the idea pages: the place fields, their check against the area, the small map. `more` adds a kind's further fields (a budget). */
export function placeHooks(kind: PlaceKind, maps: MapConfig, more?: Partial<IdeaPageHooks>): IdeaPageHooks {
  return {
    scripts: [MAP_SCRIPT],
    stored: async (db: Db, id: number) => {
      const place = (await loadPlaces(db, kind, [id])).get(id);
      return { ...(place ? fieldsOf(place) : {}), ...(await more?.stored?.(db, id)) };
    },
    formContext: (db, moduleId) => loadArea(db, moduleId),
    check: async (db, moduleId, body) => {
      const { values, errors, place } = readPlace(body, await loadArea(db, moduleId));
      const further = await more?.check?.(db, moduleId, body);
      return {
        values: { ...values, ...further?.values },
        errors: { ...errors, ...further?.errors },
        extra: { ...(place ? { point: JSON.stringify(place.point), point_label: place.pointLabel } : {}), ...further?.extra },
      };
    },
    update: async (tx: Tx, id, extra) => {
      if (typeof extra.point === 'string') await updatePlace(tx, kind, id, { point: JSON.parse(extra.point) as PointFeature, pointLabel: String(extra.point_label ?? '') });
      await more?.update?.(tx, id, extra);
    },
    Fields: ({ page, values, errors, area, db }) => (
      <PlaceFields lang={page.lang} maps={maps} area={area as AreaFeatureCollection | null} values={values} errors={errors}>
        {more?.Fields && <more.Fields page={page} db={db} values={values} errors={errors} area={area} />}
      </PlaceFields>
    ),
    detailFields: { point: kind.placeTable.point, pointLabel: kind.placeTable.pointLabel, area: modules.area, ...more?.detailFields },
    detail: (page, idea, orgSlug, facts) => {
      const { point, pointLabel, area } = facts as { point: PointFeature | null; pointLabel: string; area: AreaFeatureCollection | null };
      const further = more?.detail?.(page, idea, orgSlug, facts);
      if (!point) return further;
      return (
        <>
          {further}
          <PlaceView lang={page.lang} maps={maps} area={area} label={pointLabel} marker={markerOf(orgSlug, kind, idea, point)} />
        </>
      );
    },
    moderation: more?.moderation,
  };
}
