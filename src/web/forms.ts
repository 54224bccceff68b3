import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { ApiError } from '../http/errors.js';
import { csrfTokenValid } from '../http/session.js';

/**
 * The outer bound of any one form field: above every field's own limit (the largest is rich text,
 * 50,000 bytes), so that a text over its limit comes back as a message beside its field.
 */
export const FORM_FIELD_MAX_LENGTH = 100_000;

/** Form posts: named string fields (a repeated field is a 400), at most 100 of them. */
export const FormBody = Type.Record(Type.String(), Type.String({ maxLength: FORM_FIELD_MAX_LENGTH }), { maxProperties: 100 });
export type FormBody = Record<string, string>;

/** An HTML page (every page route declares this as its 2xx/4xx response). */
const HtmlPage = Type.String({ description: 'An HTML page' });
export const htmlResponses = { 200: HtmlPage, 400: HtmlPage, 403: HtmlPage, 404: HtmlPage, 405: HtmlPage, 429: HtmlPage, 500: HtmlPage, 502: HtmlPage };

interface PageSchemas {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
}

/**
 * Route options of a page: HTML responses, kept out of the API's OpenAPI document, plus
 * params/query/body schemas. With `app.withTypeProvider<TypeBoxTypeProvider>()` the handler's
 * `request.params`, `.query` and `.body` are typed from these schemas (no casts).
 */
export const pageRoute = <S extends PageSchemas>(schemas: S = {} as S) => ({ config: { page: true }, schema: { hide: true, response: htmlResponses, ...schemas } });

/** A form post whose fields may repeat (checkbox groups such as an idea's labels). */
export const RepeatedFormBody = Type.Record(Type.String(), Type.Union([Type.String({ maxLength: FORM_FIELD_MAX_LENGTH }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })]), { maxProperties: 100 });
export type RepeatedFormBody = Record<string, string | string[]>;

/** All values of a repeatable field. */
export const fieldList = (body: RepeatedFormBody | undefined, name: string): string[] => {
  const value = body?.[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
};

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 500 }) });

/** A trimmed form field ('' when missing). */
export const field = (body: FormBody | RepeatedFormBody | undefined, name: string, trim = true): string => {
  const value = body?.[name];
  if (typeof value !== 'string') return '';
  return trim ? value.trim() : value;
};

/** Every form post carries the CSRF token of its page (double submit). */
export function checkCsrf(request: FastifyRequest): void {
  if (!csrfTokenValid(request)) throw new ApiError(403, { detail: 'CSRF verification failed. Request aborted.' });
}
