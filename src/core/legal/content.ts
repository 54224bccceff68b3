import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contentPages, platformSettings, startPage, startPageFigures, users } from '../../db/schema/index.js';
import { type Lang, LANGUAGES } from '../../i18n/index.js';
import type { ContentPagePlacement, FigureValues, PlatformSettingsInput } from './rules.js';

/* Reads of the platform's content pages and the start page's texts (a+ CMS). */

/** A content page with its texts in every language. */
export interface ContentPage {
  id: number;
  slug: string;
  title: Record<Lang, string>;
  body: Record<Lang, string>;
  placement: ContentPagePlacement;
  weight: number;
}

/** A link of the footer or the menu to a content page. */
export interface SiteLink {
  slug: string;
  title: Record<Lang, string>;
  placement: ContentPagePlacement;
}

const toPage = (row: typeof contentPages.$inferSelect): ContentPage => ({
  id: row.id,
  slug: row.slug,
  title: { en: row.titleEn, de: row.titleDe },
  body: { en: row.bodyEn, de: row.bodyDe },
  placement: row.placement,
  weight: row.weight,
});

/** Every content page, in their order (the back-office's list). */
export async function listContentPages(db: DbOrTx): Promise<ContentPage[]> {
  return (await db.select().from(contentPages).orderBy(asc(contentPages.weight), asc(contentPages.id))).map(toPage);
}

/** A content page by id or by slug; null when there is none. */
export async function loadContentPage(db: DbOrTx, by: { id: number } | { slug: string }): Promise<ContentPage | null> {
  const [row] = await db
    .select()
    .from(contentPages)
    .where('id' in by ? eq(contentPages.id, by.id) : eq(contentPages.slug, by.slug));
  return row ? toPage(row) : null;
}

/** Whether another page than `exceptId` has the slug. */
export async function contentSlugTaken(db: DbOrTx, slug: string, exceptId: number | null): Promise<boolean> {
  const [row] = await db
    .select({ id: contentPages.id })
    .from(contentPages)
    .where(and(eq(contentPages.slug, slug), exceptId === null ? undefined : ne(contentPages.id, exceptId)));
  return row !== undefined;
}

/**
 * The links of the footer and the menu in order, and the platform settings, in one statement: the
 * one row of `platform_settings` fully joined with the linked content pages.
 */
export async function loadSiteFrame(db: DbOrTx): Promise<{ links: SiteLink[]; platform: PlatformSettings }> {
  const linked = db
    .select({ slug: contentPages.slug, titleEn: contentPages.titleEn, titleDe: contentPages.titleDe, placement: contentPages.placement, weight: contentPages.weight, id: contentPages.id })
    .from(contentPages)
    .where(ne(contentPages.placement, 'none'))
    .as('linked');
  const rows = await db
    .select({ settings: platformSettings, slug: linked.slug, titleEn: linked.titleEn, titleDe: linked.titleDe, placement: linked.placement })
    .from(platformSettings)
    .fullJoin(linked, sql`true`)
    .where(or(isNull(platformSettings.id), eq(platformSettings.id, 1)))
    .orderBy(asc(linked.weight), asc(linked.id));
  const links = rows.flatMap((r) => (r.slug === null ? [] : [{ slug: r.slug, title: { en: r.titleEn ?? '', de: r.titleDe ?? '' }, placement: r.placement ?? 'none' }]));
  return { links, platform: toPlatformSettings(rows[0]?.settings ?? null) };
}

/** The start page's texts and image ('' and null where none is set). */
export interface StartPageTexts {
  heading: Record<Lang, string>;
  intro: Record<Lang, string>;
  image: string | null;
  imageAlt: Record<Lang, string>;
}

const empty = () => Object.fromEntries(LANGUAGES.map((l) => [l, ''])) as Record<Lang, string>;

/**
 * The start page's texts and image with its figures in their order, in one statement (the start
 * page's statement budget): the one row of `start_page` fully joined with every figure.
 */
export async function loadStartPage(db: DbOrTx): Promise<StartPageTexts & { figures: Figure[] }> {
  const rows = await db
    .select({ start: startPage, figure: startPageFigures })
    .from(startPage)
    .fullJoin(startPageFigures, sql`true`)
    .where(or(isNull(startPage.id), eq(startPage.id, 1)))
    .orderBy(asc(startPageFigures.weight), asc(startPageFigures.id));
  const figures = rows.flatMap((r) => (r.figure ? [toFigure(r.figure)] : []));
  const row = rows[0]?.start;
  if (!row) return { heading: empty(), intro: empty(), image: null, imageAlt: empty(), figures };
  return { heading: { en: row.headingEn, de: row.headingDe }, intro: { en: row.introEn, de: row.introDe }, image: row.image, imageAlt: { en: row.imageAltEn, de: row.imageAltDe }, figures };
}

/** A figure of the start page with its id and picture. */
export type Figure = FigureValues & { id: number; image: string | null };

const toFigure = (row: typeof startPageFigures.$inferSelect): Figure => ({
  id: row.id,
  kind: row.kind,
  weight: row.weight,
  figure: { en: row.figureEn, de: row.figureDe },
  caption: { en: row.captionEn, de: row.captionDe },
  quote: { en: row.quoteEn, de: row.quoteDe },
  personName: row.personName,
  personDescription: { en: row.personDescriptionEn, de: row.personDescriptionDe },
  image: row.image,
  imageAlt: { en: row.imageAltEn, de: row.imageAltDe },
});

/** The start page's figures in their order. */
export async function listFigures(db: DbOrTx): Promise<Figure[]> {
  return (await db.select().from(startPageFigures).orderBy(asc(startPageFigures.weight), asc(startPageFigures.id))).map(toFigure);
}

export async function loadFigure(db: DbOrTx, id: number): Promise<Figure | null> {
  const [row] = await db.select().from(startPageFigures).where(eq(startPageFigures.id, id));
  return row ? toFigure(row) : null;
}

/** The platform's operator and links as the footer shows them ('' and null where none is set). */
export type PlatformSettings = PlatformSettingsInput & { shareImage: string | null };

export async function loadPlatformSettings(db: DbOrTx): Promise<PlatformSettings> {
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.id, 1));
  return toPlatformSettings(row ?? null);
}

function toPlatformSettings(row: typeof platformSettings.$inferSelect | null): PlatformSettings {
  if (!row) return { name: '', address: '', contacts: '', facebook: '', twitter: '', github: '', shareImage: null, shareDescription: empty() };
  const { name, address, contacts, facebook, twitter, github, shareImage } = row;
  return { name, address, contacts, facebook, twitter, github, shareImage, shareDescription: { en: row.shareDescriptionEn, de: row.shareDescriptionDe } };
}

/** The frame of a page when it cannot be read (an error page's while the database fails): no links, nothing written. */
export const emptySiteFrame = (): { links: SiteLink[]; platform: PlatformSettings } => ({ links: [], platform: toPlatformSettings(null) });

/** The addresses of the platform's operators (active superusers with an address): the contact form's receivers. */
export async function operatorAddresses(db: DbOrTx): Promise<{ email: string; language: string }[]> {
  return db
    .select({ email: users.email, language: users.language })
    .from(users)
    .where(and(eq(users.isSuperuser, true), eq(users.isActive, true), sql`${users.email} <> ''`))
    .orderBy(asc(users.id));
}
