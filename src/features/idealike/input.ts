import { Type, type Static } from 'typebox';
import { fieldErrors, type FieldErrors } from '../../http/errors.js';
import { RICH_TEXT_LIMIT, textLimitMessage, type TextLimit } from '../../text/limits.js';
import type { NamedRef } from '../../core/modules/queries.js';
import { type AnswerInput, checkAnswers, CUSTOM_FIELD_LIMITS, type CustomField } from '../customfields/rules.js';

/** The most each text of an idea may hold (checked by the rules below, for the API and the pages alike). */
export const IDEA_LIMITS = {
  name: { maxChars: 120 },
  description: RICH_TEXT_LIMIT,
  image_copyright: { maxChars: 120 },
  moderator_feedback_text: RICH_TEXT_LIMIT,
} satisfies Record<string, TextLimit>;

const IdeaFields = {
  name: Type.String({ minLength: 1, maxLength: IDEA_LIMITS.name.maxChars, description: 'Title of the idea' }),
  description: Type.String({ minLength: 1, description: `Text of the idea (HTML is cleaned); at most ${RICH_TEXT_LIMIT.maxBytes} bytes of UTF-8` }),
  category: Type.Optional(
    Type.Union([Type.Null(), Type.Integer(), Type.String()], {
      description: "Id of one of the module's categories; required when the module has categories, otherwise absent, empty or null",
    }),
  ),
  labels: Type.Optional(Type.Array(Type.Union([Type.Integer(), Type.String()]), { description: "Ids of the module's labels (a form repeats the field)" })),
  image_deleted: Type.Optional(Type.Boolean({ description: 'true removes the stored image' })),
};

/** The answers to the module's own questions (features/customfields): `custom_<question id>`, a text or a choice's id. */
const Answers = {
  patternProperties: {
    '^custom_[0-9]+$': Type.Union([Type.String({ maxLength: CUSTOM_FIELD_LIMITS.answer.maxChars }), Type.Integer(), Type.Null()], {
      description: "custom_<id>: the answer to one of the module's own questions (GET /api/modules/{moduleId}/ideas/ lists them in custom_fields); a text, or the id of one of its choices; empty or null for none",
    }),
  },
};

/** Body of POST and PUT: name and description required. */
export const IdeaBody = Type.Object(IdeaFields, Answers);
/** Body of PATCH: every field optional. */
export const IdeaPatchBody = Type.Partial(Type.Object(IdeaFields), Answers);
export type IdeaPatchBody = Static<typeof IdeaPatchBody>;

const ImageField = { image: Type.Optional(Type.String({ format: 'binary', description: 'An image of at least 600×400 pixels (png, jpeg, gif), at most 5 MB' })) };

/** The same body for each way of sending it: JSON, form-encoded and multipart with an image. */
export function ideaBodyContent(body: typeof IdeaBody | typeof IdeaPatchBody) {
  return {
    content: {
      'application/json': { schema: body },
      'application/x-www-form-urlencoded': { schema: body },
      'multipart/form-data': { schema: Type.Object({ ...body.properties, ...ImageField }, { required: body.required, ...Answers }) },
    },
  };
}

/** What an idea write changes, after the field checks. */
export interface IdeaInput {
  name?: string;
  description?: string;
  categoryId?: number | null;
  labelIds?: number[];
  imageDeleted: boolean;
  /** The answers to the module's own questions (on PATCH only those sent). */
  answers: AnswerInput[];
}

type Mode = 'create' | 'put' | 'patch';

const toPk = (value: number | string): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
const pkError = (value: number | string) =>
  toPk(value) === null ? `Incorrect type. Expected pk value, received ${typeof value === 'string' ? 'str' : typeof value}.` : `Invalid pk "${value}" - object does not exist.`;

function text(errors: FieldErrors, field: 'name' | 'description', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const tooLong = textLimitMessage(trimmed, IDEA_LIMITS[field]);
  if (!trimmed) errors[field] = ['This field may not be blank.'];
  else if (trimmed.includes('\0')) errors[field] = ['Null characters are not allowed.'];
  else if (tooLong) errors[field] = [tooLong];
  return trimmed;
}

/** The field error of one more idea text (image copyright, moderator feedback), or null. */
export const ideaTextError = (field: 'image_copyright' | 'moderator_feedback_text', value: string): string | null => textLimitMessage(value, IDEA_LIMITS[field]);

/**
 * Decision D2: required when the module has categories, and then one of them; otherwise may be empty.
 * On an edit an empty value (the app's untouched dropdown sends `category: ""`; the schema reads ""
 * as null) keeps the idea's current category when that is one of the module's; on create it stays
 * a field error.
 */
function category(errors: FieldErrors, value: IdeaPatchBody['category'], categories: NamedRef[], mode: Mode, currentId: number | null): number | null | undefined {
  const empty = value === undefined || value === null || value === '';
  if (empty) {
    if (mode === 'patch' && value === undefined) return undefined;
    const kept = mode !== 'create' && categories.some((c) => c.id === currentId) ? currentId : null;
    if (kept === null && categories.length) errors.category = ['This field is required.'];
    return kept;
  }
  const pk = toPk(value);
  if (pk === null || !categories.some((c) => c.id === pk)) {
    errors.category = [pkError(value)];
    return undefined;
  }
  return pk;
}

function labelIds(errors: FieldErrors, values: IdeaPatchBody['labels'], labels: NamedRef[], mode: Mode): number[] | undefined {
  if (values === undefined) return mode === 'patch' ? undefined : [];
  const ids = new Set<number>();
  for (const value of values.filter((v) => v !== '')) {
    const pk = toPk(value);
    if (pk === null || !labels.some((l) => l.id === pk)) {
      errors.labels = [pkError(value)];
      return undefined;
    }
    ids.add(pk);
  }
  return [...ids];
}

/** Checks an idea body against its module and its questions (and, on an edit, the idea's current category); throws a 400 with DRF field errors. */
export function parseIdeaInput(body: IdeaPatchBody, module: { categories: NamedRef[]; labels: NamedRef[] }, fields: CustomField[], mode: Mode, currentCategoryId: number | null = null): IdeaInput {
  const { input, errors } = checkIdeaInput(body, module, mode, currentCategoryId);
  const custom = checkAnswers(fields, (name) => (body as Record<string, unknown>)[name], mode);
  if (Object.keys(errors).length || Object.keys(custom.errors).length) throw fieldErrors({ ...errors, ...custom.errors });
  return { ...input, answers: custom.answers };
}

/** The same checks, returning the field errors (English catalogue keys) for a form to show beside its fields. */
export function checkIdeaInput(body: IdeaPatchBody, module: { categories: NamedRef[]; labels: NamedRef[] }, mode: Mode, currentCategoryId: number | null = null): { input: Omit<IdeaInput, 'answers'>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (mode !== 'patch') {
    for (const field of ['name', 'description'] as const) if (body[field] === undefined) errors[field] = ['This field is required.'];
  }
  const input: Omit<IdeaInput, 'answers'> = {
    name: text(errors, 'name', body.name),
    description: text(errors, 'description', body.description),
    categoryId: category(errors, body.category, module.categories, mode, currentCategoryId),
    labelIds: labelIds(errors, body.labels, module.labels, mode),
    imageDeleted: body.image_deleted === true,
  };
  return { input, errors };
}

/** §A13: with an image the author confirms holding the rights to it (the browser form's checkbox). */
export const rightOfUseError = (hasImage: boolean, confirmed: boolean): string | null =>
  hasImage && !confirmed ? 'Please confirm that you hold the rights to this image and that the people shown agree.' : null;
