/**
 * How long a text field may be. Each field's limit is defined once, beside its input rule (for
 * example `IDEA_LIMITS` in features/idealike/input.ts); docs/security.md lists them all
 * (test/text/limits.test.ts keeps that table in step).
 */
export interface TextLimit {
  /** At most this many characters (UTF-16 code units, as a browser's maxlength counts). */
  maxChars?: number;
  /** At most this many bytes of UTF-8: rich text, whose markup the writer does not see. */
  maxBytes?: number;
}

/** Rich text (idea descriptions, project information and result, moderator feedback on ideas). */
export const RICH_TEXT_LIMIT = { maxBytes: 50_000 } satisfies TextLimit;

/** The message (a catalogue key and its parameters) when `value` breaks `limit`, else null. */
export function textLimitError(value: string, limit: TextLimit): [string, { max: number }] | null {
  if (limit.maxChars !== undefined && value.length > limit.maxChars) return ['Ensure this field has no more than %(max)s characters.', { max: limit.maxChars }];
  if (limit.maxBytes !== undefined && Buffer.byteLength(value, 'utf8') > limit.maxBytes) return ['Ensure this text is no longer than %(max)s KB.', { max: limit.maxBytes / 1000 }];
  return null;
}

/** The same message in English with its parameter filled in (the API's field errors). */
export function textLimitMessage(value: string, limit: TextLimit): string | null {
  const error = textLimitError(value, limit);
  return error && error[0].replace('%(max)s', String(error[1].max));
}
