import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { IdeaTable } from './columns.js';
import { djangoSlug } from '../../text/django-slug.js';

/** The slug adhocracy+ made from an idea's title when it was created (Django's `slugify`, cut like django-autoslug). */
export const legacyIdeaSlug = djangoSlug;

/** The slugs a legacy address may mean: "plan-2030-3" is "plan-2030" #3 (django-autoslug counts from 2) or "plan-2030-3" #1. */
function readings(slug: string): { base: string; index: number }[] {
  const numbered = /^(.+)-(\d{1,6})$/.exec(slug);
  const plain = { base: slug, index: 0 };
  return numbered && Number(numbered[2]) >= 2 ? [{ base: numbered[1], index: Number(numbered[2]) - 1 }, plain] : [plain];
}

/** The `index`-th (from 0) idea without a stored a+ slug whose title makes `base`: an index range scan of `index + 1` rows. */
export const titleSlugLookup = (db: DbOrTx, base: string, index: number, ideas: IdeaTable) =>
  db
    .select({ id: ideas.id })
    .from(ideas)
    .where(and(isNull(ideas.legacySlug), eq(ideas.titleSlug, base)))
    .orderBy(asc(ideas.id))
    .offset(index)
    .limit(1);

/**
 * The id of the idea an old adhocracy+ address `/<org>/ideas/<slug>/` named, or null. An idea
 * loaded with its a+ slug (`legacy_slug`, unique) is found by it, renamed or not: one indexed
 * statement. For ideas loaded without one, a+ made the slug from the title when the idea was
 * created, unique over all ideas: the first idea with a slug keeps it, later ones get "-2", "-3",
 * … in creation (id) order. The database keeps that slug of each title (`ideas.title_slug`, a
 * generated column: umlauts lose their marks, "ß" and punctuation go, as in Django) and finds it by
 * index (issue 21, finding 3: no slugify over every idea per request); such an idea renamed since
 * a+ is not found. A statement per reading, at most three, touching at most the rows it skips.
 * Map ideas and proposals (`/<org>/mapideas/<slug>/`, `/<org>/budgeting/<slug>/`) are found the
 * same way in their own table (`table`: their idea columns, IdeaKind.table).
 */
export async function findIdeaByLegacySlug(db: DbOrTx, slug: string, ideas: IdeaTable): Promise<number | null> {
  const address = slug.toLowerCase();
  const [stored] = await db.select({ id: ideas.id }).from(ideas).where(eq(ideas.legacySlug, address)).limit(1);
  if (stored) return stored.id;
  for (const { base, index } of readings(address)) {
    if (!/^[a-z0-9_][a-z0-9_-]*$/.test(base)) continue;
    const rows = await titleSlugLookup(db, base, index, ideas);
    if (rows[0]) return rows[0].id;
  }
  return null;
}
