import type { ComponentChildren } from 'preact';
import type { MapConfig } from '../../config.js';
import type { AreaFeatureCollection } from '../../db/schema/index.js';
import { type Lang, t } from '../../i18n/index.js';
import { FieldErrors } from '../../web/layout.js';
import { errorAttrs } from '../idealike/views.js';

/** The map script (Leaflet is loaded by it, from /static/leaflet/). */
export const MAP_SCRIPT = '/static/maps.js';

/** A marker of the map: an item's point, its name and page. */
export interface MapMarker {
  lng: number;
  lat: number;
  name: string;
  url: string;
}

/** What the map script reads from a map's element. */
interface MapSpec {
  /** Unset: the script asks `/maps/config/` (where the page has no configuration at hand). */
  tiles?: string;
  attribution?: string;
  area: AreaFeatureCollection | null;
  markers?: MapMarker[];
  /** A point chooser: the ids of the latitude and longitude fields it fills on a click. */
  input?: { lat: string; lng: string };
  /** A drawing of the area: the id of the GeoJSON field it fills. */
  draw?: string;
  /** With `draw`: the preset choice (the select's id) and each preset's area by id; choosing one shows it before saving. */
  presets?: { select: string; areas: Record<string, AreaFeatureCollection> };
  geocoder?: string | null;
}

/**
 * A map (Leaflet, drawn by /static/maps.js). Without JavaScript or tiles it stays an empty box with
 * its label; every form beside it works without it.
 */
/** What a map says when its tiles cannot be loaded (maps.js): it still works without them. */
const TILES_FAILED = 'The map background cannot be loaded. Clicking the map still sets the place, and the latitude and longitude fields work without it.';

export function MapBox({ lang, maps, spec, label, small }: { lang: Lang; maps?: MapConfig; spec: Omit<MapSpec, 'tiles' | 'attribution'>; label: string; small?: boolean }) {
  const data: MapSpec = { ...(maps ? { tiles: maps.tilesUrl, attribution: maps.attribution, geocoder: maps.geocoderUrl } : {}), ...spec };
  return (
    <div class={`map${small ? ' map-small' : ''}`} role="region" aria-label={label} data-map={JSON.stringify(data)} data-search-label={t(lang, 'Search an address')} data-search-button={t(lang, 'Find')} data-tiles-failed={t(lang, TILES_FAILED)}>
      <noscript>{t(lang, 'The map needs JavaScript; the list and the fields work without it.')}</noscript>
    </div>
  );
}

/** The place fields of a map idea's or proposal's form: latitude, longitude and label, with a map to click on. */
export function PlaceFields(props: { lang: Lang; maps: MapConfig; area: AreaFeatureCollection | null; values: Record<string, string>; errors: Record<string, string[]>; children?: ComponentChildren }) {
  const { lang, values, errors } = props;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  return (
    <fieldset class={`field place-fields${errors.point ? ' has-error' : ''}`}>
      <legend>{t(lang, 'Place')}</legend>
      <p class="help" id="id_point_help">
        {t(lang, 'Click on the map to set the place, or enter its latitude and longitude (decimal degrees). It must lie inside the area of this module.')}
      </p>
      <MapBox lang={lang} maps={props.maps} label={t(lang, 'Map: click to set the place')} spec={{ area: props.area, input: { lat: 'id_lat', lng: 'id_lng' } }} />
      <div class="field-row">
        <div class="field">
          <label for="id_lat">{t(lang, 'Latitude')}</label>
          <input id="id_lat" name="lat" type="text" inputMode="decimal" value={values.lat ?? ''} {...errorAttrs('id_lat', errors.point, true)} aria-describedby={`id_point_help${errors.point ? ' id_point_errors' : ''}`} />
        </div>
        <div class="field">
          <label for="id_lng">{t(lang, 'Longitude')}</label>
          <input id="id_lng" name="lng" type="text" inputMode="decimal" value={values.lng ?? ''} {...errorAttrs('id_lng', errors.point, true)} aria-describedby={`id_point_help${errors.point ? ' id_point_errors' : ''}`} />
        </div>
      </div>
      <FieldErrors id="id_point_errors" errors={tr(errors.point)} />
      <div class={`field${errors.point_label ? ' has-error' : ''}`}>
        <label for="id_point_label">{t(lang, 'Label of the place')}</label>
        <input id="id_point_label" name="point_label" type="text" maxLength={255} value={values.point_label ?? ''} {...errorAttrs('id_point_label', errors.point_label, true)} />
        <p class="help" id="id_point_label_help">
          {t(lang, 'This could be an address or the name of a landmark.')}
        </p>
        <FieldErrors id="id_point_label_errors" errors={tr(errors.point_label)} />
      </div>
      {props.children}
    </fieldset>
  );
}

/** An item's place on its page: its label and a small map with the point and the module's area. */
export function PlaceView({ lang, maps, area, marker, label }: { lang: Lang; maps: MapConfig; area: AreaFeatureCollection | null; marker: MapMarker; label: string }) {
  return (
    <div class="place">
      {label && (
        <p class="place-label">
          <span class="visually-hidden">{t(lang, 'Place')}: </span>
          {label}
        </p>
      )}
      <MapBox lang={lang} maps={maps} small label={t(lang, 'Map of the place')} spec={{ area, markers: [marker] }} />
    </div>
  );
}
