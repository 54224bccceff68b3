import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ideas } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';

/** The longest slug adhocracy+ gave an idea (django-autoslug's default `max_length`). */
const SLUG_MAX = 50;

/** What Django's slugify keeps of a character: NFKD, then ASCII only (`encode('ascii', 'ignore')`): "ü" → "u", "ß" → "". */
const asciiFold = (text: string) => text.normalize('NFKD').replace(/[^\p{ASCII}]/gu, '');

/** The slug adhocracy+ made from an idea's title when it was created (Django's `slugify`, cut like django-autoslug). */
export function legacyIdeaSlug(name: string): string {
  const ascii = asciiFold(name)
    .toLowerCase()
    .replace(/[^\w\s-]/g, '');
  return ascii.replace(/[-\s]+/g, '-').replace(/^[-_]+|[-_]+$/g, '').slice(0, SLUG_MAX);
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

/** `legacyIdeaSlug(ideas.name)` in SQL, so that the lookup compares slugs in the database (ASCII spaces only: `\s` would take Unicode ones too). */
const legacySlugOfName = sql<string>`left(btrim(regexp_replace(regexp_replace(lower(translate(${q(ideas.name)}, ${FOLD.from}, ${FOLD.to})), '[^a-z0-9_ \\t\\n\\r\\f\\v-]', '', 'g'), '[- \\t\\n\\r\\f\\v]+', '-', 'g'), '-_'), ${SLUG_MAX})`;

/** The slugs a legacy address may mean: "plan-2030-3" is "plan-2030" #3 (django-autoslug counts from 2) or "plan-2030-3" #1. */
function readings(slug: string): { base: string; index: number }[] {
  const numbered = /^(.+)-(\d{1,6})$/.exec(slug);
  const plain = { base: slug, index: 0 };
  return numbered && Number(numbered[2]) >= 2 ? [{ base: numbered[1], index: Number(numbered[2]) - 1 }, plain] : [plain];
}

/**
 * The id of the idea an old adhocracy+ address `/<org>/ideas/<slug>/` named, or null. An idea
 * loaded with its a+ slug (`legacy_slug`, unique) is found by it, renamed or not: one indexed
 * statement. For ideas loaded without one, a+ made the slug from the title when the idea was
 * created, unique over all ideas: the first idea with a slug keeps it, later ones get "-2", "-3",
 * … in creation (id) order. The database makes that slug again from each title the way Django did
 * (umlauts lose their marks, "ß" and punctuation go) and compares it; such an idea renamed since
 * a+ is not found. A statement per reading.
 */
export async function findIdeaByLegacySlug(db: DbOrTx, slug: string): Promise<number | null> {
  const address = slug.toLowerCase();
  const [stored] = await db.select({ id: ideas.id }).from(ideas).where(eq(ideas.legacySlug, address)).limit(1);
  if (stored) return stored.id;
  for (const { base, index } of readings(address)) {
    if (!/^[a-z0-9_][a-z0-9_-]*$/.test(base)) continue;
    const rows = await db
      .select({ id: ideas.id })
      .from(ideas)
      .where(and(isNull(ideas.legacySlug), sql`${legacySlugOfName} = ${base}`))
      .orderBy(asc(ideas.id))
      .offset(index)
      .limit(1);
    if (rows[0]) return rows[0].id;
  }
  return null;
}
