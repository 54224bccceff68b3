import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisations, pageRedirects, platformPages, projects } from '../../db/schema/index.js';
import { LANGUAGES, type Lang } from '../../i18n/index.js';
import { cleanRichText } from '../../text/html.js';
import { ORGANISATION_TEXTS, type OrganisationTextKey, organisationTextPath, PLATFORM_PAGE_KEYS, type PlatformPageKey, platformPagePath, writtenTexts } from './texts.js';

/** A platform page in every language ('' where none is written). */
export async function loadPlatformPage(db: DbOrTx, key: PlatformPageKey): Promise<Record<Lang, string>> {
  const rows = await db.select({ language: platformPages.language, body: platformPages.body }).from(platformPages).where(eq(platformPages.key, key));
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, rows.find((r) => r.language === lang)?.body ?? ''])) as Record<Lang, string>;
}

/**
 * The platform pages not written in any language (one statement): `/pages/<key>/` shows "not written
 * yet" for them, so publishing waits for the required ones and the sign-up form does not ask to accept them.
 */
export async function unwrittenPlatformPages(db: DbOrTx): Promise<PlatformPageKey[]> {
  const rows = await db.selectDistinct({ key: platformPages.key }).from(platformPages).where(sql`btrim(${platformPages.body}) <> ''`);
  return PLATFORM_PAGE_KEYS.filter((key) => !rows.some((row) => row.key === key));
}

/** The text to show in a language: that language's, else any other that is written. */
export const inLanguage = (texts: Record<Lang, string>, lang: Lang) => texts[lang] || LANGUAGES.map((l) => texts[l]).find(Boolean) || '';

/** Stores a platform page's texts (rich text, cleaned). */
export async function savePlatformPage(tx: DbOrTx, key: PlatformPageKey, texts: Record<Lang, string>): Promise<void> {
  for (const language of LANGUAGES) {
    const body = cleanRichText(texts[language]);
    await tx
      .insert(platformPages)
      .values({ key, language, body })
      .onConflictDoUpdate({ target: [platformPages.key, platformPages.language], set: { body, modified: sql`now()` } });
  }
}

/** One legal text of an organisation, with the organisation's name; null when the organisation does not exist. */
export async function loadOrganisationText(db: DbOrTx, slug: string, key: OrganisationTextKey) {
  const [row] = await db
    .select({ slug: organisations.slug, name: organisations.name, imprint: organisations.imprint, termsOfUse: organisations.termsOfUse, dataProtection: organisations.dataProtection, netiquette: organisations.netiquette })
    .from(organisations)
    .where(eq(organisations.slug, slug));
  if (!row) return null;
  return { organisation: { slug: row.slug, name: row.name, legal: writtenTexts(row) }, body: row[ORGANISATION_TEXTS[key].column] };
}

/**
 * Where the discussion rules of a project are (§B3.2, §C4): its organisation's netiquette when the
 * organisation has written one, else the platform's netiquette page.
 */
export async function netiquettePath(db: DbOrTx, projectId: number | null): Promise<string> {
  const [row] =
    projectId === null
      ? []
      : await db
          .select({ slug: organisations.slug, netiquette: organisations.netiquette })
          .from(projects)
          .innerJoin(organisations, eq(organisations.id, projects.organisationId))
          .where(eq(projects.id, projectId));
  return row?.netiquette.trim() ? organisationTextPath(row.slug, 'netiquette') : platformPagePath('netiquette');
}

/**
 * Where an old address moved (the a+ import's CMS page paths, table `page_redirects`): the new path
 * for the path as given or with its missing trailing slash; null when it did not move.
 */
export async function movedPageTarget(db: DbOrTx, path: string): Promise<string | null> {
  if (path.length > 1000) return null;
  const candidates = path.endsWith('/') ? [path] : [path, `${path}/`];
  const rows = await db.select({ oldPath: pageRedirects.oldPath, newPath: pageRedirects.newPath }).from(pageRedirects).where(inArray(pageRedirects.oldPath, candidates));
  return (rows.find((r) => r.oldPath === path) ?? rows[0])?.newPath ?? null;
}
