import type { FieldErrors } from '../../http/errors.js';
import { type Lang, t } from '../../i18n/index.js';
import { cleanRichText, imagesWithoutAltText, stripTags } from '../../text/html.js';
import { RICH_TEXT_LIMIT, textLimitError } from '../../text/limits.js';
import { fieldList, type RepeatedFormBody } from '../../web/forms.js';
import { projectTopicsError } from '../../core/projects/rules.js';
import { orderedTopics } from '../../core/projects/topics.js';

/** What a dashboard form field accepts (§B5, §B10); one description per field, used by every form that has it. */
export interface FieldSpec {
  max?: number;
  /** Rich text: at most this many bytes of UTF-8. */
  maxBytes?: number;
  /** Required always, or (for fields counted for completeness) once the project is published (§B10.5). */
  required?: 'always' | 'published';
  /** `district`: one of the administrative districts the operator keeps (the ids come with the form). */
  kind?: 'text' | 'richtext' | 'email' | 'url' | 'phone' | 'choice' | 'checkbox' | 'latitude' | 'longitude' | 'topics' | 'district';
  choices?: readonly string[];
}

/** A phone number: this many digits, spaces and + ( ) - (§B10.3). */
export const PHONE_LENGTH = { min: 8, max: 20 } as const;
const PHONE = new RegExp(`^[\\d+()\\- ]{${PHONE_LENGTH.min},${PHONE_LENGTH.max}}$`);

const ACCESS_CHOICES = ['PUBLIC', 'SEMIPUBLIC', 'PRIVATE'] as const;

/** Every project field, with its limits (docs/security.md lists them). */
export const PROJECT_FIELDS = {
  name: { max: 120, required: 'always' },
  description: { max: 250, required: 'always' },
  access: { kind: 'choice', choices: ACCESS_CHOICES, required: 'always' },
  /** Guests may take part (issue 34.4); only public projects let guests in (core/projects/rules.ts). */
  allow_guests: { kind: 'checkbox' },
  image_alt_text: { max: 80 },
  image_copyright: { max: 120 },
  image_clear: { kind: 'checkbox' },
  tile_image_alt_text: { max: 80 },
  tile_image_copyright: { max: 120 },
  tile_image_clear: { kind: 'checkbox' },
  /** Repeated checkboxes; the value is the chosen codes joined by commas. */
  topics: { kind: 'topics' },
  administrative_district: { kind: 'district' },
  information: { kind: 'richtext', required: 'published', maxBytes: RICH_TEXT_LIMIT.maxBytes },
  contact_name: { max: 120 },
  contact_address_text: { max: 2000 },
  contact_phone: { kind: 'phone' },
  contact_email: { kind: 'email', max: 254 },
  contact_url: { kind: 'url', max: 200 },
  result: { kind: 'richtext', maxBytes: RICH_TEXT_LIMIT.maxBytes },
  show_insights: { kind: 'checkbox' },
  point_lat: { kind: 'latitude' },
  point_lng: { kind: 'longitude' },
  street_name: { max: 200 },
  house_number: { max: 10 },
  zip_code: { max: 20 },
} satisfies Record<string, FieldSpec>;

type ProjectField = keyof typeof PROJECT_FIELDS;

/** The fields of each project form. */
const PROJECT_FORMS = {
  create: ['name', 'description', 'access'],
  basic: ['name', 'description', 'access', 'allow_guests', 'image_alt_text', 'image_copyright', 'image_clear', 'tile_image_alt_text', 'tile_image_copyright', 'tile_image_clear', 'topics', 'administrative_district'],
  information: ['information', 'contact_name', 'contact_address_text', 'contact_phone', 'contact_email', 'contact_url'],
  result: ['result', 'show_insights'],
  location: ['point_lat', 'point_lng', 'street_name', 'house_number', 'zip_code'],
} satisfies Record<string, ProjectField[]>;

export type ProjectForm = keyof typeof PROJECT_FORMS;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);
const isUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Every embedded image has an alternative text (§B10.2). */
const imagesHaveAltText = (html: string) => imagesWithoutAltText(html) === 0;

function checkField(spec: FieldSpec, value: string, published: boolean, districtIds: string[]): [string, Record<string, number>?] | null {
  const empty = spec.kind === 'richtext' ? !stripTags(value).trim() && !/<img\b/i.test(value) : !value;
  if (empty) return spec.required === 'always' || (spec.required === 'published' && published) ? ['This field is required.'] : null;
  const tooLong = textLimitError(value, { maxChars: spec.max, maxBytes: spec.maxBytes });
  if (tooLong) return tooLong;
  switch (spec.kind) {
    case 'choice':
      return spec.choices?.includes(value) ? null : ['Select a valid choice.'];
    case 'district':
      return districtIds.includes(value) ? null : ['Select a valid choice.'];
    case 'email':
      return isEmail(value) ? null : ['Enter a valid email address.'];
    case 'url':
      return isUrl(value) ? null : ['Enter a valid URL.'];
    case 'phone':
      return PHONE.test(value) ? null : ['Enter a phone number of %(min)s to %(max)s digits, spaces and + ( ) -.', PHONE_LENGTH];
    case 'richtext':
      return imagesHaveAltText(value) ? null : ['Please add an alternative text for all images.'];
    case 'latitude':
    case 'longitude': {
      const limit = spec.kind === 'latitude' ? 90 : 180;
      const n = Number(value);
      return Number.isFinite(n) && Math.abs(n) <= limit ? null : ['Enter a number between -%(max)s and %(max)s.', { max: limit }];
    }
    default:
      return null;
  }
}

interface FormResult {
  /** The submitted values, trimmed (rich text cleaned), to show again or to store. */
  values: Record<string, string>;
  errors: FieldErrors;
}

/** Reads and checks one project form; messages in the page's language. `districtIds`: the districts there are (the basic settings' choice). */
export function readProjectForm(form: ProjectForm, body: RepeatedFormBody, published: boolean, lang: Lang, districtIds: string[] = []): FormResult {
  const values: Record<string, string> = {};
  const errors: FieldErrors = {};
  for (const name of PROJECT_FORMS[form]) {
    const spec: FieldSpec = PROJECT_FIELDS[name];
    if (spec.kind === 'topics') {
      const codes = fieldList(body, name);
      const problem = projectTopicsError(codes);
      values[name] = (problem ? codes : orderedTopics(codes)).join(',');
      if (problem) errors[name] = [t(lang, problem[0], problem[1])];
      continue;
    }
    const raw = body[name] ?? '';
    if (typeof raw !== 'string') {
      errors[name] = [t(lang, 'Give this field once.')];
      continue;
    }
    const value = spec.kind === 'richtext' ? cleanRichText(raw).trim() : spec.kind === 'checkbox' ? (raw ? 'on' : '') : raw.trim();
    values[name] = value;
    const problem = checkField(spec, value, published, districtIds);
    if (problem) errors[name] = [t(lang, problem[0], problem[1])];
  }
  if (form === 'location' && !values.point_lat !== !values.point_lng && !errors.point_lat && !errors.point_lng) {
    errors[values.point_lat ? 'point_lng' : 'point_lat'] = [t(lang, 'Give both latitude and longitude, or neither.')];
  }
  return { values, errors };
}

/** The stored topic codes of a form value (codes joined by commas). */
export const topicList = (value: string | undefined) => orderedTopics(value ? value.split(',') : []);
const orNull = (value: string | undefined) => (value ? value : null);
const numberOrNull = (value: string | undefined) => (value ? Number(value) : null);

/** The project columns a valid form sets. */
export function projectPatch(form: ProjectForm, v: Record<string, string>) {
  switch (form) {
    case 'create':
      return { name: v.name, description: v.description, access: v.access as (typeof ACCESS_CHOICES)[number] };
    case 'basic':
      return {
        name: v.name,
        description: v.description,
        access: v.access as (typeof ACCESS_CHOICES)[number],
        allowGuests: v.allow_guests === 'on',
        // Removing an image clears its copyright and alt text (§B10.1).
        imageAltText: v.image_clear ? '' : v.image_alt_text,
        imageCopyright: v.image_clear ? '' : v.image_copyright,
        tileImageAltText: v.tile_image_clear ? '' : v.tile_image_alt_text,
        tileImageCopyright: v.tile_image_clear ? '' : v.tile_image_copyright,
        topics: topicList(v.topics),
        administrativeDistrictId: numberOrNull(v.administrative_district),
      };
    case 'information':
      return {
        information: v.information,
        contactName: v.contact_name,
        contactAddressText: v.contact_address_text,
        contactPhone: v.contact_phone,
        contactEmail: v.contact_email,
        contactUrl: v.contact_url,
      };
    case 'result':
      return { result: v.result, showInsights: v.show_insights === 'on' };
    case 'location':
      return {
        pointLat: numberOrNull(v.point_lat),
        pointLng: numberOrNull(v.point_lng),
        streetName: orNull(v.street_name),
        houseNumber: orNull(v.house_number),
        zipCode: orNull(v.zip_code),
      };
  }
}

/** A stored project as form values. */
export function projectFormValues(p: {
  name: string;
  imageAltText: string;
  imageCopyright: string;
  tileImageAltText: string;
  tileImageCopyright: string;
  description: string;
  access: string;
  allowGuests: boolean;
  information: string;
  result: string;
  showInsights: boolean;
  contactName: string;
  contactAddressText: string;
  contactPhone: string;
  contactEmail: string;
  contactUrl: string;
  pointLat: number | null;
  pointLng: number | null;
  streetName: string | null;
  houseNumber: string | null;
  zipCode: string | null;
  topics: string[];
  administrativeDistrictId: number | null;
}): Record<ProjectField, string> {
  return {
    name: p.name,
    description: p.description,
    access: p.access,
    allow_guests: p.allowGuests ? 'on' : '',
    image_alt_text: p.imageAltText,
    image_copyright: p.imageCopyright,
    image_clear: '',
    tile_image_alt_text: p.tileImageAltText,
    tile_image_copyright: p.tileImageCopyright,
    tile_image_clear: '',
    topics: p.topics.join(','),
    administrative_district: p.administrativeDistrictId === null ? '' : String(p.administrativeDistrictId),
    information: p.information,
    result: p.result,
    show_insights: p.showInsights ? 'on' : '',
    contact_name: p.contactName,
    contact_address_text: p.contactAddressText,
    contact_phone: p.contactPhone,
    contact_email: p.contactEmail,
    contact_url: p.contactUrl,
    point_lat: p.pointLat === null ? '' : String(p.pointLat),
    point_lng: p.pointLng === null ? '' : String(p.pointLng),
    street_name: p.streetName ?? '',
    house_number: p.houseNumber ?? '',
    zip_code: p.zipCode ?? '',
  };
}

/** The two images of the basic settings (§B10.1): form field, smallest size, media folder. */
export const PROJECT_IMAGES = {
  image: { rules: { minWidth: 1500, minHeight: 500 }, folder: 'projects/backgrounds' },
  tile_image: { rules: { minWidth: 500, minHeight: 300 }, folder: 'projects/tiles' },
} as const;
export type ProjectImageField = keyof typeof PROJECT_IMAGES;

/** §B10.1: an image that is kept or uploaded needs its copyright and its alternative text. */
export function projectImageErrors(values: Record<string, string>, present: Record<ProjectImageField, boolean>, lang: Lang): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of Object.keys(PROJECT_IMAGES) as ProjectImageField[]) {
    if (!present[field]) continue;
    if (!values[`${field}_copyright`]) errors[`${field}_copyright`] = [t(lang, 'Please add copyright information.')];
    if (!values[`${field}_alt_text`]) errors[`${field}_alt_text`] = [t(lang, 'Please add an alternative text for this image.')];
  }
  return errors;
}
