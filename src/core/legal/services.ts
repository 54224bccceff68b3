import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { contentPages, platformSettings, startPage, startPageFigures } from '../../db/schema/index.js';
import type { Lang } from '../../i18n/index.js';
import { queueMail } from '../../mail/outbox.js';
import { cleanRichText } from '../../text/html.js';
import { operatorAddresses } from './content.js';
import type { ContactMessage, ContentPageValues, FigureValues, PlatformSettingsInput } from './rules.js';

/* Writes of the platform's content pages, the start page and the contact form (a+ CMS). */

const columns = (v: ContentPageValues) => ({
  slug: v.slug,
  titleEn: v.title.en,
  titleDe: v.title.de,
  bodyEn: cleanRichText(v.body.en),
  bodyDe: cleanRichText(v.body.de),
  placement: v.placement,
  weight: v.weight,
});

/** Adds a content page, with the id given (loaddata keeps a fixture's ids) or a new one; answers its id. */
export async function addContentPage(tx: Tx, values: ContentPageValues, id?: number): Promise<number> {
  const [row] = await tx
    .insert(contentPages)
    .values({ ...(id === undefined ? {} : { id }), ...columns(values) })
    .returning({ id: contentPages.id });
  return row.id;
}

/** Adds a content page (`id` null) or changes one; answers its id. */
export async function saveContentPage(tx: Tx, id: number | null, values: ContentPageValues): Promise<number> {
  if (id === null) return addContentPage(tx, values);
  await tx.update(contentPages).set({ ...columns(values), modified: new Date() }).where(eq(contentPages.id, id));
  return id;
}

export async function deleteContentPage(tx: Tx, id: number): Promise<void> {
  await tx.delete(contentPages).where(eq(contentPages.id, id));
}

/** Stores the start page's texts (rich text cleaned) and, when given, its image (null removes it). */
export async function saveStartPage(tx: Tx, texts: { heading: Record<Lang, string>; intro: Record<Lang, string>; imageAlt: Record<Lang, string> }, image?: string | null): Promise<void> {
  const values = {
    headingEn: texts.heading.en.trim(),
    headingDe: texts.heading.de.trim(),
    introEn: cleanRichText(texts.intro.en),
    introDe: cleanRichText(texts.intro.de),
    imageAltEn: texts.imageAlt.en.trim(),
    imageAltDe: texts.imageAlt.de.trim(),
    ...(image !== undefined ? { image } : {}),
    modified: new Date(),
  };
  await tx.insert(startPage).values({ id: 1, ...values }).onConflictDoUpdate({ target: startPage.id, set: values });
}

/** Queues a contact message to every operator, the sender's address in it to answer to. */
export async function sendContactMessage(tx: DbOrTx, message: ContactMessage, origin: string): Promise<void> {
  const body = [`From: ${message.name || '—'} <${message.email}>`, `Sent through the contact form of ${origin}/contact/`, '', message.message].join('\n');
  for (const operator of await operatorAddresses(tx)) await queueMail(tx, { to: operator.email, subject: `[Contact] ${message.subject}`, body, kind: 'contact_message' });
}

/** Stores the platform's operator and links (address and contacts cleaned) and, when given, the sharing image (null removes it). */
export async function savePlatformSettings(tx: Tx, input: PlatformSettingsInput, shareImage?: string | null): Promise<void> {
  const values = {
    name: input.name.trim(),
    address: cleanRichText(input.address),
    contacts: cleanRichText(input.contacts),
    facebook: input.facebook.trim(),
    twitter: input.twitter.trim(),
    github: input.github.trim(),
    shareDescriptionEn: input.shareDescription.en.trim(),
    shareDescriptionDe: input.shareDescription.de.trim(),
    ...(shareImage !== undefined ? { shareImage } : {}),
    modified: new Date(),
  };
  await tx.insert(platformSettings).values({ id: 1, ...values }).onConflictDoUpdate({ target: platformSettings.id, set: values });
}

const figureColumns = (v: FigureValues) => ({
  kind: v.kind,
  weight: v.weight,
  figureEn: v.figure.en,
  figureDe: v.figure.de,
  captionEn: v.caption.en,
  captionDe: v.caption.de,
  quoteEn: v.quote.en,
  quoteDe: v.quote.de,
  personName: v.personName,
  personDescriptionEn: v.personDescription.en,
  personDescriptionDe: v.personDescription.de,
  imageAltEn: v.imageAlt.en,
  imageAltDe: v.imageAlt.de,
});

/** Adds a figure of the start page (`id` null) or changes one, with its picture when given (null removes it); answers its id. */
export async function saveFigure(tx: Tx, id: number | null, values: FigureValues, image?: string | null): Promise<number> {
  const columns = { ...figureColumns(values), ...(image !== undefined ? { image } : {}) };
  if (id === null) {
    const [row] = await tx.insert(startPageFigures).values(columns).returning({ id: startPageFigures.id });
    return row.id;
  }
  await tx.update(startPageFigures).set(columns).where(eq(startPageFigures.id, id));
  return id;
}

export async function deleteFigure(tx: Tx, id: number): Promise<void> {
  await tx.delete(startPageFigures).where(eq(startPageFigures.id, id));
}
