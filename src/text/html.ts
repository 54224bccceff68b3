import sanitizeHtml from 'sanitize-html';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
const stripOnce = (html: string) => decode(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }));

/**
 * Plain text of an HTML fragment: tags (and script/style contents) dropped, entities decoded.
 * Decoding may turn `&lt;img …&gt;` into markup, so tags are dropped again until nothing changes:
 * plain text never holds markup, however often it was encoded. (Each round only shortens it.)
 */
export function stripTags(html: string): string {
  const known = stripped.get(html);
  if (known !== undefined) return known;
  let text = html;
  for (let next = stripOnce(text); next !== text; next = stripOnce(text)) text = next;
  remember(html, text);
  return text;
}

/**
 * The plain texts of recently stripped fragments, oldest first: lists (the ideas of a module) strip
 * the same descriptions on every request, and parsing HTML is most of their serialising. stripTags
 * is a pure function, so nothing needs invalidating; the cache holds at most STRIPPED_CHARS
 * characters of input and output together (a few MB), evicting the oldest.
 */
const stripped = new Map<string, string>();
const STRIPPED_CHARS = 2_000_000;
let strippedChars = 0;

function remember(html: string, text: string): void {
  const size = html.length + text.length;
  if (size > STRIPPED_CHARS / 100) return;
  strippedChars += size;
  stripped.set(html, text);
  for (const [oldHtml, oldText] of stripped) {
    if (strippedChars <= STRIPPED_CHARS) break;
    stripped.delete(oldHtml);
    strippedChars -= oldHtml.length + oldText.length;
  }
}

/** Images in rich text come from our own media only (`/media/…`): no tracking pixels, no remote content. */
const OWN_MEDIA = /^\/media\/[^/\\]/;

/** Rich text as stored: a safe subset of HTML (what the reference's editor produces). */
export function cleanRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'blockquote', 'figure', 'figcaption', 'img'],
    allowedAttributes: { a: ['href', 'rel', 'target'], img: ['src', 'alt', 'width', 'height'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === 'img' && !OWN_MEDIA.test(frame.attribs.src ?? ''),
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to put into HTML (an element's content or a quoted attribute), for HTML built outside TSX (e-mails). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
