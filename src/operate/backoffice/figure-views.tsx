import { type Lang, LANGUAGES, t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { DataTable, PostButton } from '../../web/components.js';
import { Checkbox, Input, Select, TextArea } from '../../web/controls.js';
import { CsrfField, Notice } from '../../web/layout.js';
import type { Figure } from '../../core/legal/content.js';
import { FIGURE_LIMITS, type FigureKind } from '../../core/legal/rules.js';
import { Frame } from './views.js';

/* The back-office's figures of the start page (a+ landingpage.StatisticsItem). */

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', de: 'Deutsch' };
const KINDS: Record<FigureKind, string> = { number: 'A number with its caption', testimonial: 'A testimonial', picture: 'A picture' };
type Errors = Record<string, string[]>;

/** What a figure says, in the operator's language (else the other). */
const summary = (f: Figure, lang: Lang) => {
  const of = (texts: Record<Lang, string>) => texts[lang] || LANGUAGES.map((l) => texts[l]).find(Boolean) || '';
  return f.kind === 'number' ? of(f.figure) : f.kind === 'testimonial' ? `${f.personName}: ${of(f.quote)}` : of(f.imageAlt);
};

export function FiguresPage({ page, figures, notice }: { page: PageContext; figures: Figure[]; notice: string | null }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Figures of the start page')} current="content" notice={notice}>
      <p>{t(lang, 'Shown on the start page below its introduction, in order of their position.')}</p>
      <p>
        <a class="btn" href="/backoffice/start-page/figures/create/">
          {t(lang, 'Add a figure')}
        </a>
      </p>
      {figures.length ? (
        <DataTable headers={[t(lang, 'Figure'), t(lang, 'Kind'), t(lang, 'Position'), t(lang, 'Actions')]}>
          {figures.map((f) => (
            <tr>
              <td>
                <a href={`/backoffice/start-page/figures/${f.id}/`}>{summary(f, lang) || t(lang, 'Edit')}</a>
              </td>
              <td>{t(lang, KINDS[f.kind])}</td>
              <td>{f.weight}</td>
              <td>
                <PostButton page={page} action={`/backoffice/start-page/figures/${f.id}/delete/`} label={t(lang, 'Delete')} aria={t(lang, 'Delete %(name)s', { name: summary(f, lang) })} />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p>{t(lang, 'There are no figures yet.')}</p>
      )}
    </Frame>
  );
}

export function FigureForm({ page, action, values, image, errors }: { page: PageContext; action: string; values: Record<string, string>; image: string | null; errors: Errors }) {
  const { lang } = page;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  const kinds = (Object.keys(KINDS) as FigureKind[]).map((value) => ({ value, label: t(lang, KINDS[value]) }));
  const perLanguage = (name: string, label: string, maxLength: number, help?: string) =>
    LANGUAGES.map((l) => <Input name={`${name}_${l}`} label={`${t(lang, label)} (${LANGUAGE_NAMES[l]})`} value={values[`${name}_${l}`]} maxLength={maxLength} errors={tr(errors[`${name}_${l}`])} help={help && t(lang, help)} />);
  return (
    <Frame page={page} title={values.id ? t(lang, 'Edit figure') : t(lang, 'Add a figure')} current="content">
      <form method="post" action={action} enctype="multipart/form-data" noValidate>
        <CsrfField page={page} />
        {Object.keys(errors).length > 0 && <Notice>{t(lang, 'Please correct the errors below.')}</Notice>}
        <Select name="kind" label={t(lang, 'Kind')} value={values.kind || 'number'} choices={kinds} errors={tr(errors.kind)} help={t(lang, 'A number needs its figure; a testimonial its quote and who said it; a picture the picture and its description.')} />
        <fieldset>
          <legend>{t(lang, 'A number with its caption')}</legend>
          {perLanguage('figure', 'Figure', FIGURE_LIMITS.figure.maxChars, 'For example: 12,000 participants')}
          {perLanguage('caption', 'Caption', FIGURE_LIMITS.caption.maxChars)}
        </fieldset>
        <fieldset>
          <legend>{t(lang, 'A testimonial')}</legend>
          {LANGUAGES.map((l) => (
            <TextArea name={`quote_${l}`} label={`${t(lang, 'Quote')} (${LANGUAGE_NAMES[l]})`} value={values[`quote_${l}`]} rows={3} maxLength={FIGURE_LIMITS.quote.maxChars} errors={tr(errors[`quote_${l}`])} />
          ))}
          <Input name="person_name" label={t(lang, 'Who said it')} value={values.person_name} maxLength={FIGURE_LIMITS.personName.maxChars} errors={tr(errors.person_name)} />
          {perLanguage('person_description', 'About the person', FIGURE_LIMITS.personDescription.maxChars)}
        </fieldset>
        <fieldset>
          <legend>{t(lang, 'Picture (or the portrait of a testimonial)')}</legend>
          {image && (
            <div>
              <img class="idea-image-preview" src={`/media/${image}`} alt={t(lang, 'Current image')} />
              <Checkbox name="image_deleted" label={t(lang, 'Remove the image')} checked={values.image_deleted === 'on'} />
            </div>
          )}
          <Input name="image" type="file" accept="image/png,image/jpeg,image/gif" label={image ? t(lang, 'Replace the image') : t(lang, 'Upload an image')} errors={tr(errors.image)} help={t(lang, 'PNG, JPEG or GIF, at most 5 MB.')} />
          {perLanguage('image_alt', 'Description of the image', FIGURE_LIMITS.imageAlt.maxChars)}
        </fieldset>
        <Input name="weight" type="number" label={t(lang, 'Position')} value={values.weight} errors={tr(errors.weight)} help={t(lang, 'Figures are shown in ascending order of position.')} />
        <button type="submit">{t(lang, 'Save')}</button> <a href="/backoffice/start-page/figures/">{t(lang, 'Cancel')}</a>
      </form>
    </Frame>
  );
}
