import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { DataTable, PostButton } from '../../web/components.js';
import { CsrfField, Notice } from '../../web/layout.js';
import { Input, Select, TextArea } from '../../web/controls.js';
import type { AreaPreset, District, listPresetCategories } from '../../features/places/queries.js';
import { PLACE_NAME_MAX } from '../../features/places/rules.js';
import { Frame } from './views.js';

type Errors = Record<string, string[]>;
type Category = Awaited<ReturnType<typeof listPresetCategories>>[number];

/** The back-office's map places: one kind of them, with its addresses. */
export const PLACE_KINDS = {
  preset: { path: '/backoffice/maps/presets/', create: 'Add an area preset', edit: 'Edit area preset' },
  district: { path: '/backoffice/maps/districts/', create: 'Add a district', edit: 'Edit district' },
} as const;
export type PlaceKind = keyof typeof PLACE_KINDS;

const GEOJSON_HELP = 'A GeoJSON FeatureCollection of polygons (longitude, latitude in WGS 84), e.g. exported from QGIS or geojson.io. Upload a file or paste its text.';

/** A preset's or district's row: its name linking its form, its other cells, its delete button. */
function PlaceRow({ page, kind, place, cells }: { page: PageContext; kind: PlaceKind; place: { id: number; name: string }; cells: string[] }) {
  const path = `${PLACE_KINDS[kind].path}${place.id}/`;
  const remove = t(page.lang, 'Delete');
  return (
    <tr>
      <td>
        <a href={path}>{place.name}</a>
      </td>
      {cells.map((cell) => (
        <td>{cell}</td>
      ))}
      <td>
        <PostButton page={page} action={`${path}delete/`} label={remove} aria={`${remove}: ${place.name}`} />
      </td>
    </tr>
  );
}

/** The area presets, their categories and the administrative districts (a+ MapPreset, MapPresetCategory; a4 AdministrativeDistrict). */
export function MapsPage(props: { page: PageContext; presets: AreaPreset[]; categories: Category[]; districts: District[]; category: { name: string; errors?: string[] }; notice: string | null }) {
  const { page } = props;
  const { lang } = page;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  return (
    <Frame page={page} title={t(lang, 'Maps')} current="maps" notice={props.notice}>
      <p>{t(lang, 'Initiators choose an area preset for a map module and a district for a project. Nothing here is built in: the example presets come with the demo data or docs/examples/map-presets.json.')}</p>
      <h2>{t(lang, 'Area presets')}</h2>
      <DataTable headers={[t(lang, 'Name'), t(lang, 'Category'), t(lang, 'Actions')]}>
        {props.presets.map((p) => (
          <PlaceRow page={page} kind="preset" place={p} cells={[p.categoryName ?? '—']} />
        ))}
      </DataTable>
      <p>
        <a class="btn" href={`${PLACE_KINDS.preset.path}create/`}>
          {t(lang, PLACE_KINDS.preset.create)}
        </a>
      </p>
      <h2>{t(lang, 'Preset categories')}</h2>
      <DataTable headers={[t(lang, 'Name'), t(lang, 'Actions')]}>
        {props.categories.map((c) => (
          <tr>
            <td>{c.name}</td>
            <td>
              <a href={`/backoffice/maps/categories/${c.id}/`} aria-label={`${t(lang, 'Rename')}: ${c.name}`}>
                {t(lang, 'Rename')}
              </a>{' '}
              <PostButton page={page} action={`/backoffice/maps/categories/${c.id}/delete/`} label={t(lang, 'Delete')} aria={`${t(lang, 'Delete')}: ${c.name}`} />
            </td>
          </tr>
        ))}
      </DataTable>
      <form method="post" action="/backoffice/maps/categories/" noValidate>
        <CsrfField page={page} />
        <Input name="name" label={t(lang, 'New category')} value={props.category.name} maxLength={PLACE_NAME_MAX} errors={tr(props.category.errors)} help={t(lang, 'Deleting a category keeps its presets, without a category.')} />
        <button type="submit">{t(lang, 'Add category')}</button>
      </form>
      <h2>{t(lang, 'Administrative districts')}</h2>
      <DataTable headers={[t(lang, 'Name'), t(lang, 'Short code'), t(lang, 'Area'), t(lang, 'Actions')]}>
        {props.districts.map((d) => (
          <PlaceRow page={page} kind="district" place={d} cells={[d.shortCode, d.area ? t(lang, 'Yes') : t(lang, 'No')]} />
        ))}
      </DataTable>
      <p>
        <a class="btn" href={`${PLACE_KINDS.district.path}create/`}>
          {t(lang, PLACE_KINDS.district.create)}
        </a>
      </p>
    </Frame>
  );
}

/** The form of an area preset or a district: name, (category | short code), the area as a GeoJSON upload or text. */
export function PlaceForm(props: { page: PageContext; kind: PlaceKind; action: string; editing: boolean; values: Record<string, string>; errors: Errors; categories: Category[] }) {
  const { page, kind, values, errors } = props;
  const { lang } = page;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  const words = PLACE_KINDS[kind];
  return (
    <Frame page={page} title={t(lang, props.editing ? words.edit : words.create)} current="maps">
      <form method="post" action={props.action} enctype="multipart/form-data" noValidate>
        <CsrfField page={page} />
        {Object.keys(errors).length > 0 && <Notice>{t(lang, 'Please correct the errors below.')}</Notice>}
        <Input name="name" label={t(lang, 'Name')} value={values.name} required maxLength={PLACE_NAME_MAX} errors={tr(errors.name)} />
        {kind === 'preset' ? (
          <Select name="category" label={t(lang, 'Category')} value={values.category ?? ''} choices={[{ value: '', label: t(lang, 'No category') }, ...props.categories.map((c) => ({ value: String(c.id), label: c.name }))]} errors={tr(errors.category)} />
        ) : (
          <Input name="short_code" label={t(lang, 'Short code')} value={values.short_code} maxLength={2} errors={tr(errors.short_code)} help={t(lang, 'Two characters, e.g. "mi" for Mitte (optional).')} />
        )}
        <Input name="area_file" type="file" accept=".geojson,.json,application/geo+json,application/json" label={t(lang, 'GeoJSON file')} errors={tr(errors.area_file)} help={t(lang, 'An uploaded file replaces the text below.')} />
        <TextArea name="area" label={kind === 'preset' ? t(lang, 'Area (GeoJSON)') : t(lang, 'Area (GeoJSON, optional)')} value={values.area} rows={10} errors={tr(errors.area)} help={t(lang, GEOJSON_HELP)} />
        <button type="submit">{t(lang, 'Save')}</button> <a href="/backoffice/maps/">{t(lang, 'Cancel')}</a>
      </form>
    </Frame>
  );
}

/** The form renaming a preset category. */
export function CategoryForm(props: { page: PageContext; id: number; name: string; errors?: string[] }) {
  const { page } = props;
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Rename preset category')} current="maps">
      <form method="post" action={`/backoffice/maps/categories/${props.id}/`} noValidate>
        <CsrfField page={page} />
        <Input name="name" label={t(lang, 'Name')} value={props.name} required maxLength={PLACE_NAME_MAX} errors={props.errors?.map((e) => t(lang, e))} />
        <button type="submit">{t(lang, 'Save')}</button> <a href="/backoffice/maps/">{t(lang, 'Cancel')}</a>
      </form>
    </Frame>
  );
}
