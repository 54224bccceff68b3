import type { FieldErrors } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { field } from '../../web/forms.js';
import { FieldErrors as ErrorList } from '../../web/layout.js';
import type { ModuleComponent } from '../../core/modules/registry.js';
import type { DashboardComponentForm } from '../moduletypes/contract.js';
import { AREA_PRESETS } from './presets.js';
import { loadArea } from './queries.js';
import { AREA_INVALID, parseArea } from './rules.js';
import { saveArea } from './services.js';
import { MAP_SCRIPT, MapBox } from './views.js';

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
    return { area: area ? JSON.stringify(area) : '', preset: '' };
  },
  Fields: ({ page, values, errors }) => {
    const { lang } = page;
    const current = storedArea(values.area);
    return (
      <>
        <p class="help" id="id_area_help">
          {t(lang, 'Draw the area on the map (click to add corners, then "Finish"), choose a preset, or paste a GeoJSON FeatureCollection of polygons. Ideas can only be placed inside it.')}
        </p>
        <MapBox lang={lang} label={t(lang, 'Map: draw the area')} spec={{ area: current, draw: 'id_area' }} />
        <script src={MAP_SCRIPT} defer />
        <div class="field">
          <label for="id_preset">{t(lang, 'Preset')}</label>
          <select id="id_preset" name="preset">
            <option value="">{t(lang, 'No preset')}</option>
            {AREA_PRESETS.map((p) => (
              <option value={p.key} selected={values.preset === p.key}>
                {p.name[lang]}
              </option>
            ))}
          </select>
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
    const values = { area: field(body, 'area'), preset: field(body, 'preset') };
    const errors: FieldErrors = {};
    const preset = AREA_PRESETS.find((p) => p.key === values.preset);
    if (values.preset && !preset) errors.preset = ['Select a valid choice.'];
    let source: unknown = preset?.area ?? null;
    if (!preset && values.area) {
      try {
        source = JSON.parse(values.area);
      } catch {
        errors.area = [AREA_INVALID];
      }
    }
    if (!preset && !values.area) errors.area = ['This field is required.'];
    const parsed = source === null ? null : parseArea(source);
    if (parsed && 'error' in parsed) errors.area = [parsed.error];
    if (Object.keys(errors).length || !parsed || 'error' in parsed) return { values, errors };
    await db.transaction((tx) => saveArea(tx, module.id, parsed.area));
    return { values: { area: JSON.stringify(parsed.area), preset: '' }, errors };
  },
};
