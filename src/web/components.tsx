import type { ComponentChildren } from 'preact';
import { type Lang, t } from '../i18n/index.js';
import type { PageContext } from './context.js';
import { CsrfField } from './layout.js';

export { RichText, richTextEditor } from './rich-text.js';

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

/**
 * A list as a table: one column header a text, the rows as children (`<tr>`s). On a phone its
 * cells' long names and addresses break (site.css); what still does not fit (a long heading)
 * scrolls inside its box, never the page (issue 37.5). The box takes the keyboard's focus so that
 * it can be scrolled without a mouse.
 */
export function DataTable({ headers, children }: { headers: string[]; children: ComponentChildren }) {
  return (
    <div class="table-scroll" tabindex={0}>
      <table class="data-table">
        <thead>
          <tr>
            {headers.map((header) => (
              <th scope="col">{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One button that posts a small form (CSRF token and hidden fields) where it stands; `label` is already translated. */
export function PostButton({ page, action, fields = {}, label, aria, disabled }: { page: PageContext; action: string; fields?: Record<string, string>; label: string; aria?: string; disabled?: boolean }) {
  return (
    <form method="post" action={action} class="inline-form">
      <CsrfField page={page} />
      {Object.entries(fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" aria-label={aria} disabled={disabled}>
        {label}
      </button>
    </form>
  );
}
