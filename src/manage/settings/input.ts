import { LANGUAGES, type Lang } from '../../i18n/index.js';
import { cleanRichText } from '../../text/html.js';
import type { LegalInput, SettingsInput } from '../../core/organisations/services.js';
import type { FormBody } from '../../web/forms.js';

/** The organisation settings form (§B3.1) and the legal information form (§B3.2): fields and limits, checked once. */
export const TEXT_FIELDS = { title: 100, image_copyright: 200, url: 200, twitter_handle: 100, facebook_handle: 100, instagram_handle: 100 } as const;
export const TRANSLATED = { description: 800, slogan: 200, information: 100_000 } as const;
export const LEGAL_FIELDS = ['imprint', 'terms_of_use', 'data_protection', 'netiquette'] as const;
/** The logo is square, 200 to 800 pixels; the header image at least 1500 × 500 (§B3.1). */
export const LOGO_RULES = { minWidth: 200, minHeight: 200, max: { width: 800, height: 800 }, square: true };
export const HEADER_IMAGE_RULES = { minWidth: 1500, minHeight: 500 };
export type SettingsValues = Record<string, string>;
type Errors = Record<string, [string, Record<string, number>?][]>;

const translatedName = (field: keyof typeof TRANSLATED, lang: Lang) => `${field}_${lang}`;
const TRANSLATED_FIELDS = (Object.keys(TRANSLATED) as (keyof typeof TRANSLATED)[]).flatMap((field) => LANGUAGES.map((lang) => ({ field, lang, name: translatedName(field, lang) })));

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** Reads the settings form; errors are catalogue keys with their values. */
export function readSettingsForm(body: FormBody): { values: SettingsValues; errors: Errors; input: SettingsInput | null } {
  const names = [...Object.keys(TEXT_FIELDS), 'language', 'delete_logo', 'delete_image', ...TRANSLATED_FIELDS.map((f) => f.name)];
  const values = Object.fromEntries(names.map((name) => [name, (body[name] ?? '').trim()]));
  const errors: Errors = {};
  for (const [name, max] of Object.entries(TEXT_FIELDS)) if (values[name].length > max) errors[name] = [['Ensure this field has no more than %(max)s characters.', { max }]];
  for (const { field, name } of TRANSLATED_FIELDS) if (values[name].length > TRANSLATED[field]) errors[name] = [['Ensure this field has no more than %(max)s characters.', { max: TRANSLATED[field] }]];
  if (values.url && !errors.url && !isHttpUrl(values.url)) errors.url = [['Enter a valid URL.']];
  if (!(LANGUAGES as readonly string[]).includes(values.language)) errors.language = [['Select a valid choice.']];
  if (Object.keys(errors).length) return { values, errors, input: null };
  return {
    values,
    errors,
    input: {
      title: values.title,
      imageCopyright: values.image_copyright,
      url: values.url,
      twitterHandle: values.twitter_handle,
      facebookHandle: values.facebook_handle,
      instagramHandle: values.instagram_handle,
      language: values.language as Lang,
      translations: LANGUAGES.map((language) => ({
        language,
        description: values[translatedName('description', language)],
        slogan: values[translatedName('slogan', language)],
        information: cleanRichText(values[translatedName('information', language)]),
      })),
    },
  };
}

export function readLegalForm(body: FormBody): { values: SettingsValues; errors: Errors; input: LegalInput | null } {
  const values = Object.fromEntries(LEGAL_FIELDS.map((name) => [name, (body[name] ?? '').trim()]));
  const errors: Errors = {};
  for (const name of LEGAL_FIELDS) if (values[name].length > 100_000) errors[name] = [['Ensure this field has no more than %(max)s characters.', { max: 100_000 }]];
  if (Object.keys(errors).length) return { values, errors, input: null };
  const clean = (name: (typeof LEGAL_FIELDS)[number]) => cleanRichText(values[name]);
  return { values, errors, input: { imprint: clean('imprint'), termsOfUse: clean('terms_of_use'), dataProtection: clean('data_protection'), netiquette: clean('netiquette') } };
}
