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
  let text = html;
  for (let next = stripOnce(text); next !== text; next = stripOnce(text)) text = next;
  return text;
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
