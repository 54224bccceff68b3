import { type Lang, t } from '../i18n/index.js';

export interface PagerLinks {
  previous: string | null;
  next: string | null;
}

/** `?page=n` links of a numbered list (page 1 is the bare path); null where there is no such page. */
export function pagerLinks(path: string, page: number, size: number, count: number): PagerLinks {
  const link = (n: number) => (n === 1 ? path : `${path}${path.includes('?') ? '&' : '?'}page=${n}`);
  return { previous: page > 1 ? link(page - 1) : null, next: page * size < count ? link(page + 1) : null };
}

/** A page number past the end of a list (page 1 always exists, even empty). */
export const pastTheEnd = (page: number, size: number, count: number) => page > 1 && (page - 1) * size >= count;

export function Pager({ lang, pager }: { lang: Lang; pager: PagerLinks }) {
  if (!pager.previous && !pager.next) return null;
  return (
    <nav class="pager" aria-label={t(lang, 'Pages')}>
      {pager.previous && <a href={pager.previous}>{t(lang, 'Previous page')}</a>}
      {pager.next && <a href={pager.next}>{t(lang, 'Next page')}</a>}
    </nav>
  );
}
