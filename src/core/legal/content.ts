import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contentPages, platformSettings, startPage, startPageFigures, users } from '../../db/schema/index.js';
import { type Lang, LANGUAGES } from '../../i18n/index.js';
import type { ContentPagePlacement, FigureValues } from './rules.js';

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

/** The links of the footer and the menu, in order: one statement. */
export async function loadSiteLinks(db: DbOrTx): Promise<SiteLink[]> {
  const rows = await db
    .select({ slug: contentPages.slug, titleEn: contentPages.titleEn, titleDe: contentPages.titleDe, placement: contentPages.placement })
    .from(contentPages)
    .where(ne(contentPages.placement, 'none'))
    .orderBy(asc(contentPages.weight), asc(contentPages.id));
  return rows.map((r) => ({ slug: r.slug, title: { en: r.titleEn, de: r.titleDe }, placement: r.placement }));
}

/** The start page's texts and image ('' and null where none is set). */
export interface StartPageTexts {
  heading: Record<Lang, string>;
  intro: Record<Lang, string>;
  image: string | null;
  imageAlt: Record<Lang, string>;
}

const empty = () => Object.fromEntries(LANGUAGES.map((l) => [l, ''])) as Record<Lang, string>;

export async function loadStartPage(db: DbOrTx): Promise<StartPageTexts> {
  const [row] = await db.select().from(startPage).where(eq(startPage.id, 1));
  if (!row) return { heading: empty(), intro: empty(), image: null, imageAlt: empty() };
  return { heading: { en: row.headingEn, de: row.headingDe }, intro: { en: row.introEn, de: row.introDe }, image: row.image, imageAlt: { en: row.imageAltEn, de: row.imageAltDe } };
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
export interface PlatformSettings {
  name: string;
  address: string;
  contacts: string;
  facebook: string;
  twitter: string;
  github: string;
  shareImage: string | null;
  shareDescription: Record<Lang, string>;
}

export async function loadPlatformSettings(db: DbOrTx): Promise<PlatformSettings> {
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.id, 1));
  if (!row) return { name: '', address: '', contacts: '', facebook: '', twitter: '', github: '', shareImage: null, shareDescription: empty() };
  const { name, address, contacts, facebook, twitter, github, shareImage } = row;
  return { name, address, contacts, facebook, twitter, github, shareImage, shareDescription: { en: row.shareDescriptionEn, de: row.shareDescriptionDe } };
}

/** The addresses of the platform's operators (active superusers with an address): the contact form's receivers. */
export async function operatorAddresses(db: DbOrTx): Promise<{ email: string; language: string }[]> {
  return db
    .select({ email: users.email, language: users.language })
    .from(users)
    .where(and(eq(users.isSuperuser, true), eq(users.isActive, true), sql`${users.email} <> ''`))
    .orderBy(asc(users.id));
}
