/** The longest slug adhocracy+ gave an idea (django-autoslug's default `max_length`). */
const DJANGO_SLUG_MAX = 50;

/** What Django's slugify keeps of a character: NFKD, then ASCII only (`encode('ascii', 'ignore')`): "ü" → "u", "ß" → "". */
const asciiFold = (text: string) => text.normalize('NFKD').replace(/[^\p{ASCII}]/gu, '');

/** Django's `slugify`, cut like django-autoslug: the slug adhocracy+ made from a title. */
export function djangoSlug(name: string): string {
  const ascii = asciiFold(name)
    .toLowerCase()
    .replace(/[^\w\s-]/g, '');
  return ascii.replace(/[-\s]+/g, '-').replace(/^[-_]+|[-_]+$/g, '').slice(0, DJANGO_SLUG_MAX);
}

/**
 * The same fold for PostgreSQL's `translate()`: every letter with marks (Latin-1, Latin Extended,
 * Latin Extended Additional) and every space that NFKD turns into one ASCII character, paired with
 * it. What is left that is not ASCII the slug expression drops, as Django does.
 */
const FOLD = (() => {
  const ranges: [number, number][] = [
    [0x80, 0x24f],
    [0x1e00, 0x1eff],
    [0x2000, 0x200a],
    [0x3000, 0x3000],
  ];
  let from = '';
  let to = '';
  for (const [start, end] of ranges) {
    for (let code = start; code <= end; code++) {
      const char = String.fromCodePoint(code);
      const folded = asciiFold(char);
      if (folded.length === 1) {
        from += char;
        to += folded;
      }
    }
  }
  return { from, to };
})();

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * `djangoSlug(<column>)` as an immutable SQL expression (ASCII spaces only: `\s` would take Unicode
 * ones too), for a generated column: the database computes it once on every write.
 */
export const djangoSlugSql = (column: string) =>
  `left(btrim(regexp_replace(regexp_replace(lower(translate(${column}, ${literal(FOLD.from)}, ${literal(FOLD.to)})), '[^a-z0-9_ \\t\\n\\r\\f\\v-]', '', 'g'), '[- \\t\\n\\r\\f\\v]+', '-', 'g'), '-_'), ${DJANGO_SLUG_MAX})`;
