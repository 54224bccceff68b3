import { LANGUAGES, type Lang, t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, FormErrors, Layout, Notice } from '../../web/layout.js';
import { Checkbox, HTML_HELP, Input, RICH_TEXT_SCRIPTS, Select, TextArea } from '../../web/controls.js';
import { OrganisationTabs } from '../projects/views.js';
import { legalSettingsPath, organisationSettingsPath } from '../../web/paths.js';
import type { OrganisationProfile } from '../../core/organisations/queries.js';
import { LEGAL_FIELDS, type SettingsValues, TEXT_FIELDS, TRANSLATED } from './input.js';

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', de: 'Deutsch' };
type TranslatedErrors = Record<string, string[]>;

/** The form's values from a stored organisation. */
export function settingsValues(o: OrganisationProfile): SettingsValues {
  const values: SettingsValues = {
    title: o.title,
    image_copyright: o.imageCopyright,
    url: o.url,
    twitter_handle: o.twitterHandle,
    facebook_handle: o.facebookHandle,
    instagram_handle: o.instagramHandle,
    language: o.language,
    imprint: o.imprint,
    terms_of_use: o.termsOfUse,
    data_protection: o.dataProtection,
    netiquette: o.netiquette,
  };
  for (const tr of o.translations) {
    values[`description_${tr.language}`] = tr.description;
    values[`slogan_${tr.language}`] = tr.slogan;
    values[`information_${tr.language}`] = tr.information;
  }
  return values;
}

interface FormProps {
  page: PageContext;
  organisation: OrganisationProfile;
  values: SettingsValues;
  errors: TranslatedErrors;
  saved: boolean;
}

function Frame({ page, organisation, title, current, saved, errors, children }: Omit<FormProps, 'values'> & { title: string; current: 'settings' | 'legal'; children: preact.ComponentChildren }) {
  const { lang } = page;
  return (
    <Layout page={page} title={title} scripts={RICH_TEXT_SCRIPTS}>
      <h1>{title}</h1>
      <OrganisationTabs page={page} organisation={organisation.slug} current={current} />
      {saved && <Notice>{t(lang, 'Your changes have been saved.')}</Notice>}
      {Object.keys(errors).length > 0 && <FormErrors errors={[t(lang, 'Please correct the errors below.')]} />}
      {children}
    </Layout>
  );
}

export function OrganisationSettingsPage({ page, organisation, values, errors, saved }: FormProps) {
  const { lang } = page;
  const image = (name: 'logo' | 'image', label: string, help: string, current: string | null) => (
    <div class={`field${errors[name] ? ' has-error' : ''}`}>
      <label for={`id_${name}`}>{label}</label>
      {current && <img src={`/media/${current}`} alt="" class="settings-preview" />}
      <input type="file" id={`id_${name}`} name={name} accept="image/png,image/jpeg,image/gif" aria-describedby={`id_${name}_help${errors[name] ? ` id_${name}_errors` : ''}`} />
      <p class="help" id={`id_${name}_help`}>
        {help}
      </p>
      {errors[name] && (
        <ul class="errorlist" id={`id_${name}_errors`}>
          {errors[name].map((e) => (
            <li>{e}</li>
          ))}
        </ul>
      )}
      {current && <Checkbox name={`delete_${name}`} label={t(lang, 'Remove the image')} checked={values[`delete_${name}`] === 'on'} />}
    </div>
  );
  return (
    <Frame page={page} organisation={organisation} title={t(lang, 'Organisation settings')} current="settings" errors={errors} saved={saved}>
      <form method="post" action={organisationSettingsPath(organisation.slug)} enctype="multipart/form-data" noValidate>
        <CsrfField page={page} />
        <Input name="title" label={t(lang, 'Title')} value={values.title} maxLength={TEXT_FIELDS.title} errors={errors.title} />
        {image('logo', t(lang, 'Logo'), t(lang, 'Square, 200 to 800 pixels; png, jpeg or gif, at most 5 MB.'), organisation.logo)}
        {image('image', t(lang, 'Header image'), t(lang, 'At least 1500 × 500 pixels; png, jpeg or gif, at most 5 MB.'), organisation.image)}
        <Input name="image_copyright" label={t(lang, 'Header image copyright')} value={values.image_copyright} maxLength={TEXT_FIELDS.image_copyright} errors={errors.image_copyright} />
        {LANGUAGES.map((l) => (
          <fieldset class="field">
            <legend>{LANGUAGE_NAMES[l]}</legend>
            <TextArea name={`description_${l}`} label={t(lang, 'Description')} value={values[`description_${l}`]} maxLength={TRANSLATED.description} rows={3} errors={errors[`description_${l}`]} help={t(lang, 'Shown on the landing page; at most %(max)s characters.', { max: TRANSLATED.description })} />
            <Input name={`slogan_${l}`} label={t(lang, 'Slogan')} value={values[`slogan_${l}`]} maxLength={TRANSLATED.slogan} errors={errors[`slogan_${l}`]} />
            <TextArea name={`information_${l}`} label={t(lang, 'Information')} value={values[`information_${l}`]} rows={8} richText={lang} errors={errors[`information_${l}`]} help={`${t(lang, 'Shown on the "About" page.')} ${t(lang, HTML_HELP)}`} />
          </fieldset>
        ))}
        <Input name="url" type="url" label={t(lang, 'Website')} value={values.url} maxLength={TEXT_FIELDS.url} errors={errors.url} help={t(lang, 'A full address starting with https://')} />
        <Input name="twitter_handle" label={t(lang, 'Twitter handle')} value={values.twitter_handle} maxLength={TEXT_FIELDS.twitter_handle} errors={errors.twitter_handle} />
        <Input name="facebook_handle" label={t(lang, 'Facebook handle')} value={values.facebook_handle} maxLength={TEXT_FIELDS.facebook_handle} errors={errors.facebook_handle} />
        <Input name="instagram_handle" label={t(lang, 'Instagram handle')} value={values.instagram_handle} maxLength={TEXT_FIELDS.instagram_handle} errors={errors.instagram_handle} />
        <Select
          name="language"
          label={t(lang, 'Language of e-mails to people without an account')}
          value={values.language}
          errors={errors.language}
          choices={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <button type="submit">{t(lang, 'Save')}</button>
      </form>
    </Frame>
  );
}

const LEGAL_LABELS: Record<(typeof LEGAL_FIELDS)[number], string> = { imprint: 'Imprint', terms_of_use: 'Terms of use', data_protection: 'Data protection', netiquette: 'Netiquette' };

/** `setup`: step 3 of the first-run setup (operate/setup); saving leads on to the project dashboard. */
export function LegalSettingsPage({ page, organisation, values, errors, saved, setup = false }: FormProps & { setup?: boolean }) {
  const { lang } = page;
  return (
    <Frame page={page} organisation={organisation} title={t(lang, 'Legal information')} current="legal" errors={errors} saved={saved}>
      {setup && <p class="lead">{t(lang, 'Step %(step)s of %(steps)s', { step: 3, steps: 4 })}</p>}
      <p>{t(lang, "These texts are linked in the footer of the organisation's pages; the netiquette also from e-mails about blocked comments.")}</p>
      <p>{t(lang, 'One language is enough: each text is shown as written, whatever language the reader chose. An empty text is not linked; you can write or change every text later under Settings.')}</p>
      <form method="post" action={legalSettingsPath(organisation.slug)} noValidate>
        <CsrfField page={page} />
        {setup && <input type="hidden" name="setup" value="1" />}
        {LEGAL_FIELDS.map((name) => (
          <TextArea name={name} label={t(lang, LEGAL_LABELS[name])} value={values[name]} rows={10} richText={lang} errors={errors[name]} help={t(lang, HTML_HELP)} />
        ))}
        <button type="submit">{t(lang, setup ? 'Save and continue to the first project' : 'Save')}</button>
      </form>
    </Frame>
  );
}
