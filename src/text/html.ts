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

/** Block elements of rich text; `div` is what Chromium's editor makes of a paragraph. */
const BLOCK_TAG = /<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]/i;
const FIRST_BLOCK_TAG = /<(p|ul|ol|h[2-4]|blockquote|figure)[\s>]/i;

/**
 * Plain text typed into a rich-text field (no block elements; a textarea without the editor, the
 * app, an imprint address) keeps its lines: a blank line (or two line breaks) starts a paragraph,
 * a single one becomes `<br>`. Text on one line, and HTML with paragraphs, stays as it is.
 */
function paragraphsOfPlainText(html: string): string {
  if (BLOCK_TAG.test(html) || !/\n|<br\s*\/?>/i.test(html)) return html;
  return html
    .trim()
    .split(/(?:\r?\n[ \t]*){2,}|(?:<br\s*\/?>\s*){2,}/i)
    .map((part) => `<p>${part.trim().replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/** Text before the first paragraph (Chromium leaves the first line outside of the blocks it makes for the next ones) becomes a paragraph too. */
function wrapLeadingText(html: string): string {
  const first = FIRST_BLOCK_TAG.exec(html);
  if (!first || first.index === 0) return html;
  const lead = html.slice(0, first.index);
  return stripTags(lead).trim() || /<img/i.test(lead) ? `<p>${lead.trim()}</p>${html.slice(first.index)}` : html.slice(first.index);
}

/**
 * Rich text as stored: a safe subset of HTML (what the reference's editor produces). Paragraphs
 * survive (issue 22.1): the editor's `<div>` blocks become `<p>`, plain text keeps its lines.
 */
export function cleanRichText(html: string): string {
  return wrapLeadingText(sanitizeRichText(paragraphsOfPlainText(html)));
}

/** The plain text of rich text with its paragraphs (a blank line between blocks, a line break for `<br>`): exports and e-mails. */
export function plainTextOf(html: string): string {
  return stripTags(html.replace(/<\/(p|h\d|li|div|blockquote)>|<br\s*\/?>/gi, (tag) => (/^<br/i.test(tag) ? '<br>\n' : `${tag}\n\n`)).replace(/<br>\n/g, '\n'))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'blockquote', 'figure', 'figcaption', 'img'],
    allowedAttributes: { a: ['href', 'rel', 'target'], img: ['src', 'alt', 'width', 'height'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === 'img' && !OWN_MEDIA.test(frame.attribs.src ?? ''),
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }), div: 'p' },
  });
}

/**
 * How many images of an HTML text have no alternative text, read from the parsed HTML (the
 * parser sanitize-html uses, linear in the text) rather than by regular expressions over the raw
 * text, which backtrack quadratically on hostile input (issue 21, finding 13).
 */
export function imagesWithoutAltText(html: string): number {
  let missing = 0;
  sanitizeHtml(html, {
    allowedTags: ['img'],
    allowedAttributes: { img: ['alt'] },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img' && !(frame.attribs.alt ?? '').trim()) missing++;
      return false;
    },
  });
  return missing;
}
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to put into HTML (an element's content or a quoted attribute), for HTML built outside TSX (e-mails, the values a kept page gets at sending). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
