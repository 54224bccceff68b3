import type { FieldErrors } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { field } from '../../web/forms.js';
import { FieldErrors as ErrorList } from '../../web/layout.js';
import type { ModuleComponent } from '../../core/modules/registry.js';
import type { DashboardComponentForm } from '../moduletypes/contract.js';
import type { DbOrTx } from '../../db/client.js';
import type { AreaFeatureCollection } from '../../db/schema/index.js';
import { loadArea } from './queries.js';
import { listPresets, loadPreset } from '../places/queries.js';
import { AREA_INVALID, parseArea } from '../places/rules.js';
import { saveArea } from './services.js';
import { MAP_SCRIPT, MapBox } from './views.js';

/**
 * The preset choices, grouped by category (none first), as the form's `presets` value carries them:
 * [group, [[id, name], …]][]; and `preset_areas`, each preset's area by id, for the map's preview.
 */
async function presetChoices(db: DbOrTx): Promise<{ presets: string; preset_areas: string }> {
  const groups = new Map<string, [string, string][]>();
  const areas: Record<string, unknown> = {};
  for (const p of await listPresets(db)) {
    const group = p.categoryName ?? '';
    groups.set(group, [...(groups.get(group) ?? []), [String(p.id), p.name]]);
    areas[p.id] = p.area;
  }
  return { presets: JSON.stringify([...groups].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : 0))), preset_areas: JSON.stringify(areas) };
}

const readChoices = (value: string | undefined): [string, [string, string][]][] => (value ? (JSON.parse(value) as [string, [string, string][]][]) : []);

const readAreas = (value: string | undefined): Record<string, AreaFeatureCollection> => (value ? (JSON.parse(value) as Record<string, AreaFeatureCollection>) : {});

/** The area a form value holds, when it is a valid one (the map shows it). */
function storedArea(value: string) {
  try {
    const parsed = value ? parseArea(JSON.parse(value)) : null;
    return parsed && 'area' in parsed ? parsed.area : null;
  } catch {
    return null;
  }
}

/** The dashboard component "Area" (adhocracy+'s `area_settings`): a module of a map type cannot be published without it. */
export const AREA_COMPONENT: ModuleComponent = {
  key: 'area_settings',
  label: { en: 'Area', de: 'Gebiet' },
  missing: (module) => (module.facts?.hasArea ? [] : [{ field: { en: 'Area', de: 'Gebiet' } }]),
};

/**
 * The area form: drawn on the map (the script fills the GeoJSON field), taken from a preset, or
 * pasted as GeoJSON (the fallback without JavaScript). Saved only when it is a valid area.
 */
export const AREA_FORM: DashboardComponentForm = {
  values: async (db, module) => {
    const area = await loadArea(db, module.id);
    return { area: area ? JSON.stringify(area) : '', preset: '', ...(await presetChoices(db)) };
  },
  Fields: ({ page, values, errors }) => {
    const { lang } = page;
    const current = storedArea(values.area);
    return (
      <>
        <p class="help" id="id_area_help">
          {t(lang, 'Draw the area on the map (click to add corners, then "Finish"), choose a preset, or paste a GeoJSON FeatureCollection of polygons. Ideas can only be placed inside it.')}
        </p>
        <MapBox lang={lang} label={t(lang, 'Map: draw the area')} spec={{ area: current, draw: 'id_area', presets: { select: 'id_preset', areas: readAreas(values.preset_areas) } }} />
        <script src={MAP_SCRIPT} defer />
        <div class={`field${errors.preset ? ' has-error' : ''}`}>
          <label for="id_preset">{t(lang, 'Preset')}</label>
          <select id="id_preset" name="preset" aria-describedby={`id_preset_help${errors.preset ? ' id_preset_errors' : ''}`} aria-invalid={errors.preset ? 'true' : undefined}>
            <option value="">{t(lang, 'No preset')}</option>
            {readChoices(values.presets).map(([group, presets]) => {
              const options = presets.map(([id, name]) => (
                <option value={id} selected={values.preset === id}>
                  {name}
                </option>
              ));
              return group ? <optgroup label={group}>{options}</optgroup> : options;
            })}
          </select>
          <p class="help" id="id_preset_help">
            {t(lang, 'The areas the platform keeps (its operator adds them in the back-office). A preset replaces the area below.')}
          </p>
          <ErrorList id="id_preset_errors" errors={errors.preset?.map((e) => t(lang, e))} />
        </div>
        <div class={`field${errors.area ? ' has-error' : ''}`}>
          <label for="id_area">{t(lang, 'Area (GeoJSON)')}</label>
          <textarea id="id_area" name="area" rows={8} aria-describedby={`id_area_help${errors.area ? ' id_area_errors' : ''}`} aria-invalid={errors.area ? 'true' : undefined}>
            {values.area}
          </textarea>
          <ErrorList id="id_area_errors" errors={errors.area?.map((e) => t(lang, e))} />
        </div>
      </>
    );
  },
  save: async (db, module, body) => {
    const values = { area: field(body, 'area'), preset: field(body, 'preset'), ...(await presetChoices(db)) };
    const errors: FieldErrors = {};
    const presetId = /^\d{1,9}$/.test(values.preset) ? Number(values.preset) : null;
    const preset = presetId === null ? null : await loadPreset(db, presetId);
    if (values.preset && !preset) errors.preset = ['Select a valid choice.'];
    let source: unknown = preset?.area ?? null;
    if (!preset && values.area) {
      try {
        source = JSON.parse(values.area);
      } catch {
        errors.area = [AREA_INVALID];
      }
    }
    if (!values.preset && !values.area) errors.area = ['This field is required.'];
    const parsed = source === null ? null : parseArea(source);
    if (parsed && 'error' in parsed) errors.area = [parsed.error];
    if (Object.keys(errors).length || !parsed || 'error' in parsed) return { values, errors };
    await db.transaction((tx) => saveArea(tx, module.id, parsed.area));
    return { values: { ...values, area: JSON.stringify(parsed.area), preset: '' }, errors };
  },
};
