/**
 * The size of request bodies (docs/security.md): a larger body is refused with 413 before it is
 * parsed. A multipart body holds at most `files` files of `fileBytes` each and `fields` fields of
 * `fieldBytes` each (the largest text field, rich text, is 50,000 bytes). The dashboard's poll
 * editor is the largest multipart form: an image input per question (a browser sends each, empty
 * or not) and a dozen fields per question; the body limit bounds the work whatever the counts.
 */
export const BODY_LIMITS = { bodyBytes: 6 * 1024 * 1024, fileBytes: 5 * 1024 * 1024, files: 100, fields: 2000, fieldBytes: 200_000 };
