import type { FieldErrors } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { hasIdeaModules, type ProjectInsights } from '../../core/insights/queries.js';
import { InsightsBlock } from '../../web/insights.js';
import { MAX_PROJECT_TOPICS, PROJECT_TOPICS } from '../../core/projects/topics.js';
import { Checkbox, Checkboxes, Input, Select, TextArea } from '../../web/controls.js';
import { PHONE_LENGTH, PROJECT_FIELDS, PROJECT_IMAGES, type ProjectForm, type ProjectImageField } from './input.js';
import { BasicFields, DashboardForm, type FrameData, PROJECT_COMPONENTS, ProjectFrame } from './views.js';
import { projectComponentPath } from '../../web/paths.js';

const RICH_TEXT_HELP = 'You can use HTML: paragraphs, headings, bold, italic, lists, links and images (each image needs an alt text).';

/** An image of the basic settings: the stored one, the upload, its copyright and alt text, and "remove" (§B10.1). */
function ImageFields({ page, field, stored, values, errors }: { page: PageContext; field: ProjectImageField; stored: string | null; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  const { minWidth, minHeight } = PROJECT_IMAGES[field].rules;
  return (
    <fieldset class="image-fields">
      <legend>{field === 'image' ? t(lang, 'Header image') : t(lang, 'Tile image')}</legend>
      {stored && <img src={`/media/${stored}`} alt={values[`${field}_alt_text`] ?? ''} class="image-preview" />}
      <Input name={field} type="file" accept="image/png,image/jpeg,image/gif" label={stored ? t(lang, 'Replace the image') : t(lang, 'Upload an image')} errors={errors[field]} help={t(lang, 'PNG, JPEG or GIF, at most 5 MB, at least %(width)s × %(height)s pixels.', { width: minWidth, height: minHeight })} />
      <Input name={`${field}_copyright`} label={t(lang, 'Copyright')} value={values[`${field}_copyright`]} maxLength={PROJECT_FIELDS[`${field}_copyright`].max} errors={errors[`${field}_copyright`]} help={t(lang, 'Required when there is an image.')} />
      <Input name={`${field}_alt_text`} label={t(lang, 'Alternative text')} value={values[`${field}_alt_text`]} maxLength={PROJECT_FIELDS[`${field}_alt_text`].max} errors={errors[`${field}_alt_text`]} help={t(lang, 'Describes the image for people who cannot see it. Required when there is an image.')} />
      {stored && <Checkbox name={`${field}_clear`} label={t(lang, 'Remove the image')} checked={values[`${field}_clear`] === 'on'} />}
    </fieldset>
  );
}

function Fields({ page, form, values, errors, project, districts }: { page: PageContext; form: Exclude<ProjectForm, 'create'>; values: Record<string, string>; errors: FieldErrors; project: FrameData['project']; districts: FrameData['districts'] }) {
  const { lang } = page;
  switch (form) {
    case 'basic':
      return (
        <>
          <BasicFields page={page} values={values} errors={errors} />
          <Checkbox
            name="allow_guests"
            label={t(lang, 'Guests may take part without an account')}
            checked={values.allow_guests === 'on'}
            help={t(lang, 'In a public project, people may add ideas, comments and ratings as guests. Guests pass a spam check and can create an account later.')}
          />
          <Checkboxes
            name="topics"
            label={t(lang, 'Topics')}
            choices={Object.entries(PROJECT_TOPICS).map(([value, label]) => ({ value, label: t(lang, label) }))}
            values={(values.topics ?? '').split(',')}
            errors={errors.topics}
            help={t(lang, 'Up to %(max)s topics; they tell people what the project is about.', { max: MAX_PROJECT_TOPICS })}
          />
          {(districts.length > 0 || errors.administrative_district) && (
            <Select
              name="administrative_district"
              label={t(lang, 'District')}
              value={values.administrative_district ?? ''}
              choices={[{ value: '', label: t(lang, 'No district') }, ...districts.map((d) => ({ value: String(d.id), label: d.name }))]}
              errors={errors.administrative_district}
              help={t(lang, 'The part of the city the project is about; the project list can be filtered by it.')}
            />
          )}
          <ImageFields page={page} field="image" stored={project.image} values={values} errors={errors} />
          <ImageFields page={page} field="tile_image" stored={project.tileImage} values={values} errors={errors} />
        </>
      );
    case 'information':
      return (
        <>
          <TextArea name="information" label={t(lang, 'Description of your project')} value={values.information} rows={12} richText={lang} errors={errors.information} help={t(lang, RICH_TEXT_HELP)} />
          <h2>{t(lang, 'Contact for questions')}</h2>
          <Input name="contact_name" label={t(lang, 'Contact person')} value={values.contact_name} maxLength={PROJECT_FIELDS.contact_name.max} errors={errors.contact_name} />
          <TextArea name="contact_address_text" label={t(lang, 'Postal address')} value={values.contact_address_text} rows={3} errors={errors.contact_address_text} />
          <Input name="contact_phone" label={t(lang, 'Phone')} value={values.contact_phone} maxLength={PHONE_LENGTH.max} errors={errors.contact_phone} />
          <Input name="contact_email" type="email" label={t(lang, 'E-mail address')} value={values.contact_email} maxLength={PROJECT_FIELDS.contact_email.max} errors={errors.contact_email} />
          <Input name="contact_url" type="url" label={t(lang, 'Website')} value={values.contact_url} maxLength={PROJECT_FIELDS.contact_url.max} errors={errors.contact_url} />
        </>
      );
    case 'result':
      return (
        <>
          <TextArea name="result" label={t(lang, 'Results of your project')} value={values.result} rows={12} richText={lang} errors={errors.result} help={t(lang, RICH_TEXT_HELP)} />
          <Checkbox name="show_insights" label={t(lang, 'Show the statistics on the public result page during the participation process')} checked={values.show_insights === 'on'} />
        </>
      );
    case 'location':
      return (
        <>
          <p class="help">{t(lang, 'Where the project takes place; the app shows projects near its users.')}</p>
          <Input name="point_lat" type="number" step="any" label={t(lang, 'Latitude')} value={values.point_lat} errors={errors.point_lat} help={t(lang, 'For example 52.5200')} />
          <Input name="point_lng" type="number" step="any" label={t(lang, 'Longitude')} value={values.point_lng} errors={errors.point_lng} help={t(lang, 'For example 13.4050')} />
          <Input name="street_name" label={t(lang, 'Street')} value={values.street_name} maxLength={PROJECT_FIELDS.street_name.max} errors={errors.street_name} />
          <Input name="house_number" label={t(lang, 'House number')} value={values.house_number} maxLength={PROJECT_FIELDS.house_number.max} errors={errors.house_number} />
          <Input name="zip_code" label={t(lang, 'Postal code')} value={values.zip_code} maxLength={PROJECT_FIELDS.zip_code.max} errors={errors.zip_code} />
        </>
      );
  }
}

/** One project component's form inside the project dashboard (§B10). */
export function ProjectComponentPage(props: { page: PageContext; data: FrameData; form: Exclude<ProjectForm, 'create'>; values: Record<string, string>; errors: FieldErrors; insights?: ProjectInsights }) {
  const { page, data, form } = props;
  const label = PROJECT_COMPONENTS.find((c) => c.key === form)?.label ?? form;
  const title = t(page.lang, label);
  return (
    <ProjectFrame page={page} data={data} title={title}>
      <DashboardForm page={page} action={projectComponentPath(data.organisation.slug, data.project.slug, form)} multipart={form === 'basic'}>
        <Fields page={page} form={form} values={props.values} errors={props.errors} project={data.project} districts={data.districts} />
      </DashboardForm>
      {props.insights && <InsightsBlock lang={page.lang} insights={props.insights} showIdeas={hasIdeaModules(data.modules.map((m) => m.blueprintType))} />}
    </ProjectFrame>
  );
}
