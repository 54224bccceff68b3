import { type Lang, t } from '../i18n/index.js';

export { RichText } from './rich-text.js';

/** Plain text whose line breaks show (comments, statements): escaped by preact, broken by CSS. */
export function PlainText({ text, class: className }: { text: string; class?: string }) {
  return <p class={`pre-line${className ? ` ${className}` : ''}`}>{text}</p>;
}

export function Breadcrumbs({ lang, items }: { lang: Lang; items: { href: string; label: string }[] }) {
  return (
    <nav aria-label={t(lang, 'Breadcrumbs')}>
      <ol class="breadcrumbs">
        {items.map((item) => (
          <li>
            <a href={item.href}>{item.label}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
