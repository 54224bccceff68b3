import type { PageLinks } from '../http/pagination.js';
import { type Lang, t } from '../i18n/index.js';

export function Pager({ lang, pager }: { lang: Lang; pager: PageLinks }) {
  if (!pager.previous && !pager.next) return null;
  return (
    <nav class="pager" aria-label={t(lang, 'Pages')}>
      {pager.previous && <a href={pager.previous}>{t(lang, 'Previous page')}</a>}
      {pager.next && <a href={pager.next}>{t(lang, 'Next page')}</a>}
    </nav>
  );
}
