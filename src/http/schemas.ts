import { Type } from 'typebox';

/** A primary key in a path: a positive int32 (anything else fails validation and answers 404). */
export const Pk = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** `{"detail": …}`, with room for the extra fields some errors carry (e.g. JWT `code`, `messages`). */
export const ErrorDetail = Type.Object({ detail: Type.String() }, { additionalProperties: true });

/** DRF field errors `{"field": ["message"]}` or a `{"detail": …}`. */
export const ErrorBody = Type.Record(Type.String(), Type.Unknown());

/** The error responses of an API route, for its schema. */
export const errorResponses = { 400: ErrorBody, 401: ErrorDetail, 403: ErrorDetail, 404: ErrorDetail };
