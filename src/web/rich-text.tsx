import { cleanRichText } from '../text/html.js';

/** Stored rich text (sanitised on save; cleaned again here, which changes nothing for clean text). */
export function RichText({ html }: { html: string }) {
  return <div class="rich-text" dangerouslySetInnerHTML={{ __html: cleanRichText(html) }} />;
}
