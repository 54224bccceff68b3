import sanitizeHtml from 'sanitize-html';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** Plain text of an HTML fragment: tags (and script/style contents) dropped, entities decoded. */
export function stripTags(html: string): string {
  const escaped = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
  return escaped.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
}

/** Rich text as stored: a safe subset of HTML (what the reference's editor produces). */
export function cleanRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'blockquote', 'figure', 'figcaption', 'img'],
    allowedAttributes: { a: ['href', 'rel', 'target'], img: ['src', 'alt', 'width', 'height'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}
