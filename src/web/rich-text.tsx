import { type Lang, t } from '../i18n/index.js';
import { cleanRichText } from '../text/html.js';

/** Stored rich text (sanitised on save; cleaned again here, which changes nothing for clean text). */
export function RichText({ html }: { html: string }) {
  return <div class="rich-text" dangerouslySetInnerHTML={{ __html: cleanRichText(html) }} />;
}

/** The attribute that turns a textarea into the editor of `/static/richtext.js`, with its toolbar's labels in the page's language. */
export const richTextEditor = (lang: Lang) => ({
  'data-rich-text': JSON.stringify({
    toolbar: t(lang, 'Text formatting'),
    bold: t(lang, 'Bold'),
    italic: t(lang, 'Italic'),
    list: t(lang, 'Bulleted list'),
    link: t(lang, 'Insert link'),
    url: t(lang, 'Link address (https://...)'),
  }),
});
