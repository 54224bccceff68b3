import { type Lang, LANGUAGES } from '../../i18n/index.js';
import { isReservedSlug } from '../slugs.js';
import { textLimitMessage } from '../../text/limits.js';
import { isValidEmail } from '../users/rules.js';
import { isPlatformPageKey } from './texts.js';

/*
 * The rules of the platform's own pages (a+ CMS): a content page, the start page's texts, the
 * contact form's message. Asked by the back-office and the contact page; no HTTP here.
 */

export const CONTENT_PAGE_LIMITS = { slug: { maxChars: 100 }, title: { maxChars: 200 }, body: { maxBytes: 100_000 }, imageAlt: { maxChars: 200 } };
export const CONTACT_LIMITS = { name: { maxChars: 100 }, subject: { maxChars: 200 }, message: { maxChars: 5000 } };
const CONTENT_PAGE_PLACEMENTS = ['footer', 'menu', 'none'] as const;
export type ContentPagePlacement = (typeof CONTENT_PAGE_PLACEMENTS)[number];
/** Contact messages a visitor (by address) may send per hour. */
export const CONTACT_LIMIT_PER_HOUR = 5;

type Errors = Record<string, string[]>;
const REQUIRED = 'This field is required.';

/** A content page as the operator enters it. */
interface ContentPageInput {
  slug: string;
  title: Record<Lang, string>;
  body: Record<Lang, string>;
  placement: string;
  weight: string;
}

/** A checked content page. */
export interface ContentPageValues {
  slug: string;
  title: Record<Lang, string>;
  body: Record<Lang, string>;
  placement: ContentPagePlacement;
  weight: number;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A content page needs a slug (lower-case letters, digits and hyphens, not a legal page's key, not
 * a reserved word, not another page's: `taken`), a title in at least one language, texts within
 * their limit, a placement and a whole-number position.
 */
export function checkContentPage(input: ContentPageInput, taken: (slug: string) => boolean): { values: ContentPageValues | null; errors: Errors } {
  const errors: Errors = {};
  const slug = input.slug.trim().toLowerCase();
  if (!slug) errors.slug = [REQUIRED];
  else if (!SLUG.test(slug) || slug.length > CONTENT_PAGE_LIMITS.slug.maxChars) errors.slug = ['Enter lower-case letters, digits and hyphens only (at most 100).'];
  else if (isPlatformPageKey(slug) || isReservedSlug(slug) || taken(slug)) errors.slug = ['This address is already taken.'];
  const title = Object.fromEntries(LANGUAGES.map((l) => [l, input.title[l].trim()])) as Record<Lang, string>;
  const body = Object.fromEntries(LANGUAGES.map((l) => [l, input.body[l]])) as Record<Lang, string>;
  if (LANGUAGES.every((l) => !title[l])) errors[`title_${LANGUAGES[0]}`] = ['A title in at least one language is required.'];
  for (const l of LANGUAGES) {
    const titleError = textLimitMessage(title[l], CONTENT_PAGE_LIMITS.title);
    if (titleError) errors[`title_${l}`] = [titleError];
    const bodyError = textLimitMessage(body[l], CONTENT_PAGE_LIMITS.body);
    if (bodyError) errors[`body_${l}`] = [bodyError];
  }
  const placement = CONTENT_PAGE_PLACEMENTS.find((p) => p === input.placement);
  if (!placement) errors.placement = ['Select a valid choice.'];
  const weight = input.weight.trim() === '' ? 0 : /^-?\d{1,4}$/.test(input.weight.trim()) ? Number(input.weight.trim()) : null;
  if (weight === null) errors.weight = ['Enter a whole number.'];
  if (Object.keys(errors).length || !placement || weight === null) return { values: null, errors };
  return { values: { slug, title, body, placement, weight }, errors };
}

/** The start page's texts as the operator enters them. */
interface StartPageInput {
  heading: Record<Lang, string>;
  intro: Record<Lang, string>;
  imageAlt: Record<Lang, string>;
}

/** The start page's texts within their limits; an image needs its description (alt text) in every language. */
export function checkStartPage(input: StartPageInput, hasImage: boolean): Errors {
  const errors: Errors = {};
  for (const l of LANGUAGES) {
    const heading = textLimitMessage(input.heading[l].trim(), CONTENT_PAGE_LIMITS.title);
    if (heading) errors[`heading_${l}`] = [heading];
    const intro = textLimitMessage(input.intro[l], CONTENT_PAGE_LIMITS.body);
    if (intro) errors[`intro_${l}`] = [intro];
    const alt = input.imageAlt[l].trim();
    const altError = textLimitMessage(alt, CONTENT_PAGE_LIMITS.imageAlt);
    if (altError) errors[`image_alt_${l}`] = [altError];
    else if (hasImage && !alt) errors[`image_alt_${l}`] = ['Describe the image for people who cannot see it.'];
  }
  return errors;
}

const FIGURE_KINDS = ['number', 'testimonial', 'picture'] as const;
export type FigureKind = (typeof FIGURE_KINDS)[number];
export const FIGURE_LIMITS = { figure: { maxChars: 200 }, caption: { maxChars: 300 }, quote: { maxChars: 2000 }, personName: { maxChars: 100 }, personDescription: { maxChars: 200 }, imageAlt: { maxChars: 200 } };

/** A figure of the start page as the operator enters it (a+ StatisticsItem). */
interface FigureInput {
  kind: string;
  weight: string;
  figure: Record<Lang, string>;
  caption: Record<Lang, string>;
  quote: Record<Lang, string>;
  personName: string;
  personDescription: Record<Lang, string>;
  imageAlt: Record<Lang, string>;
}

/** A checked figure: its texts trimmed. */
export type FigureValues = Omit<FigureInput, 'kind' | 'weight'> & { kind: FigureKind; weight: number };

const trimmed = (texts: Record<Lang, string>) => Object.fromEntries(LANGUAGES.map((l) => [l, texts[l].trim()])) as Record<Lang, string>;

/**
 * A figure needs a kind and a whole-number position; a number needs its figure in one language at
 * least, a testimonial its quote and who said it, a picture the picture (`hasImage`) with its
 * description in every language; every text within its limit.
 */
export function checkFigure(input: FigureInput, hasImage: boolean): { values: FigureValues | null; errors: Errors } {
  const errors: Errors = {};
  const kind = FIGURE_KINDS.find((k) => k === input.kind);
  if (!kind) errors.kind = ['Select a valid choice.'];
  const weight = input.weight.trim() === '' ? 0 : /^-?\d{1,4}$/.test(input.weight.trim()) ? Number(input.weight.trim()) : null;
  if (weight === null) errors.weight = ['Enter a whole number.'];
  const values = { figure: trimmed(input.figure), caption: trimmed(input.caption), quote: trimmed(input.quote), personName: input.personName.trim(), personDescription: trimmed(input.personDescription), imageAlt: trimmed(input.imageAlt) };
  const limit = (name: string, value: string, max: { maxChars: number }) => {
    const error = textLimitMessage(value, max);
    if (error) errors[name] ??= [error];
  };
  for (const l of LANGUAGES) {
    limit(`figure_${l}`, values.figure[l], FIGURE_LIMITS.figure);
    limit(`caption_${l}`, values.caption[l], FIGURE_LIMITS.caption);
    limit(`quote_${l}`, values.quote[l], FIGURE_LIMITS.quote);
    limit(`person_description_${l}`, values.personDescription[l], FIGURE_LIMITS.personDescription);
    limit(`image_alt_${l}`, values.imageAlt[l], FIGURE_LIMITS.imageAlt);
  }
  limit('person_name', values.personName, FIGURE_LIMITS.personName);
  const first = `_${LANGUAGES[0]}`;
  if (kind === 'number' && LANGUAGES.every((l) => !values.figure[l])) errors[`figure${first}`] ??= ['A figure in at least one language is required.'];
  if (kind === 'testimonial') {
    if (LANGUAGES.every((l) => !values.quote[l])) errors[`quote${first}`] ??= ['A quote in at least one language is required.'];
    if (!values.personName) errors.person_name ??= [REQUIRED];
  }
  if (kind === 'picture') {
    if (!hasImage) errors.image = ['Upload a picture.'];
    for (const l of LANGUAGES) if (!values.imageAlt[l]) errors[`image_alt_${l}`] ??= ['Describe the image for people who cannot see it.'];
  }
  if (Object.keys(errors).length || !kind || weight === null) return { values: null, errors };
  return { values: { ...values, kind, weight }, errors };
}

/** The platform's operator and its links as the back-office enters them (a+ OrganisationSettings, SocialMedia). */
export interface PlatformSettingsInput {
  name: string;
  address: string;
  contacts: string;
  facebook: string;
  twitter: string;
  github: string;
  shareDescription: Record<Lang, string>;
}

export const PLATFORM_SETTINGS_LIMITS = { name: { maxChars: 50 }, address: { maxBytes: 10_000 }, contacts: { maxBytes: 10_000 }, link: { maxChars: 500 }, shareDescription: { maxChars: 300 } };
const SOCIAL_LINKS = ['facebook', 'twitter', 'github'] as const;

const isWebAddress = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The name, address and contacts within their limits; each social link empty or a web address (http or https). */
export function checkPlatformSettings(input: PlatformSettingsInput): Errors {
  const errors: Errors = {};
  const limited = (field: string, value: string, limit: { maxChars: number } | { maxBytes: number }) => {
    const error = value.includes('\0') ? 'Null characters are not allowed.' : textLimitMessage(value, limit);
    if (error) errors[field] = [error];
  };
  limited('name', input.name.trim(), PLATFORM_SETTINGS_LIMITS.name);
  limited('address', input.address, PLATFORM_SETTINGS_LIMITS.address);
  limited('contacts', input.contacts, PLATFORM_SETTINGS_LIMITS.contacts);
  for (const link of SOCIAL_LINKS) {
    const value = input[link].trim();
    limited(link, value, PLATFORM_SETTINGS_LIMITS.link);
    if (value && !errors[link] && !isWebAddress(value)) errors[link] = ['Enter a valid URL.'];
  }
  for (const l of LANGUAGES) limited(`share_description_${l}`, input.shareDescription[l].trim(), PLATFORM_SETTINGS_LIMITS.shareDescription);
  return errors;
}

/** A message of the contact form. */
export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** A contact message needs a valid reply address, a subject and a message, each within its limit; a name is optional. */
export function checkContactMessage(input: ContactMessage): Errors {
  const errors: Errors = {};
  if (!input.email) errors.email = [REQUIRED];
  else if (!isValidEmail(input.email)) errors.email = ['Enter a valid email address.'];
  for (const field of ['name', 'subject', 'message'] as const) {
    if (field !== 'name' && !input[field]) errors[field] = [REQUIRED];
    else if (input[field].includes('\0')) errors[field] = ['Null characters are not allowed.'];
    else {
      const error = textLimitMessage(input[field], CONTACT_LIMITS[field]);
      if (error) errors[field] = [error];
    }
  }
  return errors;
}
