import { Type } from 'typebox';

/** `{"detail": "…"}`, possibly with more keys (`code`, `messages`). */
export const ErrorBody = Type.Object({ detail: Type.String() }, { additionalProperties: true });
/** A 400: DRF field errors (`{"field": ["message"]}`) or `{"detail": "…"}`. */
export const BadRequestBody = Type.Record(Type.String(), Type.Unknown());

/** Response schemas of the error statuses most routes share. */
export const errorResponses = {
  400: BadRequestBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  429: ErrorBody,
};
