import { asc, ilike } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ideas } from '../../db/schema/index.js';

/** The longest slug adhocracy+ gave an idea (django-autoslug's default `max_length`). */
const SLUG_MAX = 50;

/** The slug adhocracy+ made from an idea's title when it was created (Django's `slugify`, cut like django-autoslug). */
export function legacyIdeaSlug(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[^ -~\s]/g, '') // ASCII only, as Django's encode('ascii', 'ignore')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '');
  return ascii.replace(/[-\s]+/g, '-').replace(/^[-_]+|[-_]+$/g, '').slice(0, SLUG_MAX);
}

/** The slugs a legacy address may mean: "plan-2030-3" is "plan-2030" #3 (django-autoslug counts from 2) or "plan-2030-3" #1. */
function readings(slug: string): { base: string; index: number }[] {
  const numbered = /^(.+)-(\d{1,6})$/.exec(slug);
  const plain = { base: slug, index: 0 };
  return numbered && Number(numbered[2]) >= 2 ? [{ base: numbered[1], index: Number(numbered[2]) - 1 }, plain] : [plain];
}

/**
 * The id of the idea an old adhocracy+ address `/<org>/ideas/<slug>/` named, or null. a+ made the
 * slug from the title when the idea was created, unique over all ideas: the first idea with a slug
 * keeps it, later ones get "-2", "-3", … in creation (id) order. We keep no slug column, so the
 * slug is made again from the titles (ideas renamed since, and titles whose letters the slug
 * dropped, are not found). A statement per reading: the titles that contain the slug's words, in id order.
 */
export async function findIdeaByLegacySlug(db: DbOrTx, slug: string): Promise<number | null> {
  for (const { base, index } of readings(slug)) {
    const words = base.split(/[-_]+/).filter(Boolean);
    if (!words.length) continue;
    const pattern = `%${words.map((w) => w.replace(/[\\%_]/g, (c) => `\\${c}`)).join('%')}%`;
    const rows = await db.select({ id: ideas.id, name: ideas.name }).from(ideas).where(ilike(ideas.name, pattern)).orderBy(asc(ideas.id)).limit(1000);
    const same = rows.filter((row) => legacyIdeaSlug(row.name) === base);
    if (same[index]) return same[index].id;
  }
  return null;
}
