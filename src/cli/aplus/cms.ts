import { checkContentPage, checkFigure, checkPlatformSettings, checkStartPage, PLATFORM_SETTINGS_LIMITS } from '../../core/legal/rules.js';
import { savePlatformPage } from '../../core/legal/queries.js';
import { saveContentPage, saveFigure, savePlatformSettings, saveStartPage } from '../../core/legal/services.js';
import { isPlatformPageKey, type PlatformPageKey, platformPagePath } from '../../core/legal/texts.js';
import { isReservedSlug } from '../../core/slugs.js';
import type { Lang } from '../../i18n/index.js';
import { cleanRichText, escapeHtml } from '../../text/html.js';
import { pageRedirects } from '../../db/schema/index.js';
import type { DumpRow } from './dump.js';
import type { MediaImport } from './media.js';
import { type ImportRun, text } from './run.js';

/*
 * a+'s wagtail CMS (`a4_candy_cms_*`) into Allmende's content pages, legal pages and start page
 * (core/legal). Each page's title, slug, place in the tree and publication are in its
 * `wagtailcore.page` row of the same pk; its body is a StreamField (JSON blocks) or wagtail rich
 * text, both turned into the sanitised rich text Allmende keeps (text/html.ts cleanRichText).
 */

type Ctx = { run: ImportRun; media: MediaImport };

interface WagtailPage {
  pk: number;
  title: string;
  slug: string;
  path: string;
  urlPath: string;
  live: boolean;
  showInMenus: boolean;
}

/** The page models that become a content page, and how each one's fields read. */
const CONTENT_PAGE_MODELS = [
  'a4_candy_cms_pages.simplepage',
  'a4_candy_cms_news.newsindexpage',
  'a4_candy_cms_news.newspage',
  'a4_candy_cms_use_cases.usecaseindexpage',
  'a4_candy_cms_use_cases.usecasepage',
  'a4_candy_cms_contacts.formpage',
] as const;

/** Every a+ CMS model the import reads (import.ts lists them in its phase). */
export const CMS_MODELS = [
  'a4_candy_cms_images.customimage',
  'wagtaildocs.document',
  'a4_candy_cms_settings.importantpages',
  'a4_candy_cms_settings.organisationsettings',
  'a4_candy_cms_settings.socialmedia',
  'landingpage.statisticsitem',
  'a4_candy_cms_pages.homepage',
  ...CONTENT_PAGE_MODELS,
];

/** ImportantPages' links to the pages that hold the platform's legal texts. */
const LEGAL_LINKS: Record<string, PlatformPageKey> = { imprint: 'imprint', terms_of_use: 'terms', data_protection_policy: 'privacy', netiquette: 'netiquette' };

const LANGS: Lang[] = ['en', 'de'];

/** What a body refers to: images and documents (their media paths) and pages (their new addresses). */
interface Refs {
  images: Map<number, { path: string; alt: string }>;
  documents: Map<number, string>;
  pages: Map<number, string>;
}

const attributes = (tag: string) => Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));

/** Wagtail's stored rich text (`<embed embedtype="image" id=…>`, `<a linktype="page" id=…>`) with its references resolved. */
function wagtailRichText(html: string, refs: Refs): string {
  return html
    .replace(/<embed\b[^>]*>/gi, (tag) => {
      const a = attributes(tag);
      if (a.embedtype === 'image') {
        const image = refs.images.get(Number(a.id));
        return image ? `<img src="/media/${escapeHtml(image.path)}" alt="${escapeHtml(a.alt ?? image.alt)}">` : '';
      }
      if (a.embedtype === 'media' && a.url) return `<a href="${escapeHtml(a.url)}">${escapeHtml(a.url)}</a>`;
      return '';
    })
    .replace(/<a\b[^>]*\blinktype="(page|document)"[^>]*>/gi, (tag, type: string) => {
      const id = Number(attributes(tag).id);
      const href = type === 'page' ? refs.pages.get(id) : refs.documents.has(id) ? `/media/${refs.documents.get(id)}` : undefined;
      return href ? `<a href="${escapeHtml(href)}">` : '<a>';
    });
}

const TEXT_KEYS = new Set(['body', 'content', 'text', 'intro', 'paragraph', 'richtext', 'html', 'teaser']);

/** One StreamField block (or a value inside a struct or list block) as HTML. */
function blockHtml(type: string, value: unknown, refs: Refs): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map((v) => (v && typeof v === 'object' && 'type' in v && 'value' in v ? blockHtml(String(v.type), v.value, refs) : blockHtml(type, v, refs))).join('');
  if (type === 'image') {
    const id = typeof value === 'object' ? Number((value as { image?: unknown }).image) : Number(value);
    const image = refs.images.get(id);
    const alt = typeof value === 'object' ? text((value as { alt_text?: unknown }).alt_text) : '';
    return image ? `<figure><img src="/media/${escapeHtml(image.path)}" alt="${escapeHtml(alt || image.alt)}"></figure>` : '';
  }
  if (type === 'document') {
    const path = refs.documents.get(Number(value));
    return path ? `<p><a href="/media/${escapeHtml(path)}">${escapeHtml(path.split('/').pop() ?? path)}</a></p>` : '';
  }
  if (typeof value === 'string') {
    if (type === 'title' || type === 'heading') return `<h3>${escapeHtml(value)}</h3>`;
    if (type === 'quote') return `<blockquote><p>${escapeHtml(value)}</p></blockquote>`;
    if (type === 'quote_author') return `<p>— ${escapeHtml(value)}</p>`;
    return TEXT_KEYS.has(type) ? wagtailRichText(value, refs) : '';
  }
  if (typeof value !== 'object') return '';
  const struct = value as Record<string, unknown>;
  // The news and use-case teasers list other pages at render time: nothing of their own to keep.
  if (type === 'news' || type === 'use_cases') return struct.title ? `<h3>${escapeHtml(text(struct.title))}</h3>` : '';
  const link = text(struct.link);
  const inner = Object.entries(struct)
    .filter(([key]) => !['link', 'link_text', 'columns_count', 'color', 'document_type'].includes(key))
    .map(([key, v]) => blockHtml(key === 'columns' || key === 'entries' || key === 'documents' || key === 'examples' ? type : key, v, refs))
    .join('');
  return inner + (link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(text(struct.link_text) || link)}</a></p>` : '');
}

/** A StreamField's stored JSON (a list of `{type, value}` blocks) as HTML. */
function streamFieldHtml(stored: unknown, refs: Refs): string {
  let blocks: unknown = stored;
  if (typeof stored === 'string') {
    try {
      blocks = stored ? JSON.parse(stored) : [];
    } catch {
      return wagtailRichText(stored, refs);
    }
  }
  return Array.isArray(blocks) ? blocks.map((b: { type?: unknown; value?: unknown }) => blockHtml(text(b?.type), b?.value, refs)).join('') : '';
}

/** A wagtail slug as a content page's slug: lower-case letters, digits and hyphens, not taken. */
function freeContentSlug(slug: string, taken: Set<string>): string {
  const base = slug.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 90) || 'page';
  let candidate = base;
  for (let n = 2; taken.has(candidate) || isPlatformPageKey(candidate) || isReservedSlug(candidate); n++) candidate = `${base}-${n}`;
  taken.add(candidate);
  return candidate;
}

const firstError = (errors: Record<string, string[]>) => Object.entries(errors).map(([field, messages]) => `${field}: ${messages[0]}`)[0];

async function loadRefs({ run, media }: Ctx): Promise<Refs> {
  const refs: Refs = { images: new Map(), documents: new Map(), pages: new Map() };
  for await (const row of run.rows('a4_candy_cms_images.customimage')) {
    const path = await media.file(row.fields.file, row);
    if (path) refs.images.set(Number(row.pk), { path, alt: text(row.fields.title) });
    run.imported(row.model);
  }
  for await (const row of run.rows('wagtaildocs.document')) {
    const path = await media.file(row.fields.file, row);
    if (path) refs.documents.set(Number(row.pk), path);
    run.imported(row.model);
  }
  return refs;
}

export async function importContentPages(ctx: Ctx) {
  const { run } = ctx;
  const refs = await loadRefs(ctx);
  const pages = new Map<number, WagtailPage>();
  for await (const row of run.rows('wagtailcore.page')) {
    const f = row.fields;
    pages.set(Number(row.pk), { pk: Number(row.pk), title: text(f.title), slug: text(f.slug), path: text(f.path), urlPath: text(f.url_path), live: f.live !== false, showInMenus: f.show_in_menus === true });
  }
  let siteRoot = '/';
  for await (const row of run.rows('wagtailcore.site')) if (row.fields.is_default_site === true) siteRoot = pages.get(Number(run.fk(row.fields.root_page)))?.urlPath ?? '/';

  const legal = new Map<number, PlatformPageKey>();
  const footer = new Set<number>();
  for await (const row of run.rows('a4_candy_cms_settings.importantpages')) {
    for (const [field, key] of Object.entries(LEGAL_LINKS)) {
      const page = run.fk(row.fields[field]);
      if (page !== null) legal.set(page, key);
    }
    for (const field of ['contact', 'registration']) {
      const page = run.fk(row.fields[field]);
      if (page !== null) footer.add(page);
    }
    for (const field of ['donate_link', 'manual_link', 'github_repo_link', 'open_content_link']) run.lost(row.model, field, row.fields[field]);
    run.imported(row.model);
  }

  // Every page's new address first: bodies link to pages that come later.
  const rows: DumpRow[] = [];
  const taken = new Set<string>();
  const slugs = new Map<number, string>();
  for (const model of CONTENT_PAGE_MODELS) {
    for await (const row of run.rows(model)) {
      const page = pages.get(Number(row.pk)) ?? run.fail(row, 'has no wagtailcore.page row of the same pk (title, slug, place in the tree)');
      if (!page.live) {
        run.cannotPlace(model, 'a page never published (Allmende’s content pages have no drafts)');
        continue;
      }
      rows.push(row);
      const key = legal.get(page.pk);
      if (key) refs.pages.set(page.pk, platformPagePath(key));
      else {
        slugs.set(page.pk, freeContentSlug(page.slug, taken));
        refs.pages.set(page.pk, `/pages/${slugs.get(page.pk)}/`);
      }
    }
  }
  for (const page of pages.values()) if (page.urlPath === siteRoot) refs.pages.set(page.pk, '/');

  await importStartPage(ctx, refs);
  await importPlatformSettings(ctx, refs);
  await importFigures(ctx);
  const ordered = rows.sort((a, b) => (pages.get(Number(a.pk))?.path ?? '').localeCompare(pages.get(Number(b.pk))?.path ?? ''));
  for (const [weight, row] of ordered.entries()) {
    const page = pages.get(Number(row.pk)) ?? run.fail(row, 'has no wagtailcore.page row');
    const body = pageBody(run, row, page, pages, refs);
    const key = legal.get(page.pk);
    if (key) {
      await savePlatformPage(run.tx, key, body);
    } else {
      const input = { slug: slugs.get(page.pk) ?? '', title: pageTitle(row, page), body, placement: footer.has(page.pk) ? 'footer' : page.showInMenus ? 'menu' : 'none', weight: String(Math.min(weight, 9999)) };
      const { values, errors } = checkContentPage(input, () => false);
      await saveContentPage(run.tx, null, values ?? run.fail(row, firstError(errors) ?? 'not a valid content page'));
    }
    const old = `/${page.urlPath.slice(siteRoot.length)}`;
    const now = refs.pages.get(page.pk);
    // The old address answers 301 to the new one (http/errors.ts asks page_redirects on a page's 404).
    if (now && old !== now) {
      run.warnings.push(`the CMS page ${old} (${row.model} pk ${row.pk}) is now at ${now}`);
      await run.tx.insert(pageRedirects).values({ oldPath: old, newPath: now }).onConflictDoNothing();
    }
    run.imported(row.model);
  }
}

/** A page's title per language: its own translated title fields, else wagtail's one title. */
function pageTitle(row: DumpRow, page: WagtailPage): Record<Lang, string> {
  const of = (lang: Lang) => text(row.fields[`title_${lang}`] ?? row.fields[`header_${lang}`]) || page.title;
  return { en: of('en'), de: of('de') };
}

/** A page's body per language: subtitle, teaser, header image, intro and the StreamField, then the links to its published child pages (index pages). */
function pageBody(run: ImportRun, row: DumpRow, page: WagtailPage, pages: Map<number, WagtailPage>, refs: Refs): Record<Lang, string> {
  const f = row.fields;
  const children = [...pages.values()].filter((child) => child.path.startsWith(page.path) && child.path.length === page.path.length + 4 && child.live && refs.pages.has(child.pk));
  const list = children.length ? `<ul>${children.map((child) => `<li><a href="${escapeHtml(refs.pages.get(child.pk) ?? '')}">${escapeHtml(child.title)}</a></li>`).join('')}</ul>` : '';
  const header = f.image === null || f.image === undefined ? '' : blockHtml('image', f.image, refs);
  // The contact page's person (name and picture) and a news page's author stay on the page.
  const person = [f.contact_person_image ? blockHtml('image', f.contact_person_image, refs) : '', text(f.contact_person_name) ? `<p>${escapeHtml(text(f.contact_person_name))}</p>` : ''].join('');
  const author = text(f.author) ? `<p><em>${escapeHtml(text(f.author))}</em></p>` : '';
  for (const field of ['thank_you_text_en', 'thank_you_text_de', 'to_address', 'from_address', 'subject']) run.lost(row.model, `${field} (Allmende's contact form thanks and mails every operator)`, f[field]);
  const of = (lang: Lang) => {
    const subtitle = text(f[`subtitle_${lang}`]);
    const teaser = text(f[`teaser_${lang}`]);
    const html = [
      subtitle ? `<p><strong>${escapeHtml(subtitle)}</strong></p>` : '',
      teaser ? `<p>${escapeHtml(teaser)}</p>` : '',
      author,
      header,
      wagtailRichText(text(f[`intro_${lang}`]), refs),
      streamFieldHtml(f[`body_streamfield_${lang}`], refs),
      person,
      list,
    ].join('');
    return cleanRichText(html);
  };
  for (const lang of ['nl', 'ky', 'ru']) run.lost(row.model, `body_streamfield_${lang} (Allmende keeps en and de)`, f[`body_streamfield_${lang}`] === '[]' ? null : f[`body_streamfield_${lang}`]);
  return { en: of('en'), de: of('de') };
}

/** The CMS home page: its hero title and subtitle, body and first image become the start page's texts and image. */
async function importStartPage({ run }: Ctx, refs: Refs) {
  const model = 'a4_candy_cms_pages.homepage';
  let placed = false;
  for await (const row of run.rows(model)) {
    if (placed) {
      run.cannotPlace(model, 'a second home page (Allmende has one start page)');
      continue;
    }
    const f = row.fields;
    const imageId = [1, 2, 3, 4, 5].map((n) => run.fk(f[`image_${n}`])).find((id) => id !== null && refs.images.has(id));
    const image = imageId === undefined || imageId === null ? undefined : refs.images.get(imageId);
    const per = (make: (lang: Lang) => string) => Object.fromEntries(LANGS.map((l) => [l, make(l)])) as Record<Lang, string>;
    const texts = {
      heading: per((l) => text(f[`hero_title_${l}`]).trim()),
      intro: per((l) => cleanRichText([text(f[`hero_subtitle_${l}`]), text(f[`body_${l}`])].map((html) => wagtailRichText(html, refs)).join('') + streamFieldHtml(f[`body_streamfield_${l}`], refs))),
      imageAlt: per(() => (image ? image.alt || 'Image' : '')),
    };
    const errors = checkStartPage(texts, Boolean(image));
    const error = firstError(errors);
    if (error) run.fail(row, error);
    await saveStartPage(run.tx, texts, image?.path ?? null);
    for (let n = 2; n <= 5; n++) run.lost(model, `image_${n} (the start page has one image)`, imageId !== run.fk(f[`image_${n}`]) ? f[`image_${n}`] : null);
    run.imported(model);
    placed = true;
  }
}

/**
 * a+'s platform settings (one row per wagtail site; Allmende has one site, so the first row of each
 * model is placed): OrganisationSettings' name, address and contacts, SocialMedia's links, fallback
 * image and descriptions become the footer's address and links and the sharing tags (core/legal).
 */
async function importPlatformSettings({ run }: Ctx, refs: Refs) {
  const organisation = 'a4_candy_cms_settings.organisationsettings';
  const social = 'a4_candy_cms_settings.socialmedia';
  const first = async (model: string) => {
    let found: DumpRow | null = null;
    for await (const row of run.rows(model)) {
      if (found) run.cannotPlace(model, 'the settings of a second wagtail site (Allmende is one site)');
      else found = row;
    }
    return found;
  };
  const org = await first(organisation);
  const media = await first(social);
  if (!org && !media) return;
  const o = org?.fields ?? {};
  const m = media?.fields ?? {};
  const image = refs.images.get(Number(run.fk(m.fallback_image)));
  const description = (lang: Lang) => {
    const value = text(m[`fallback_description_${lang}`]).trim();
    const max = PLATFORM_SETTINGS_LIMITS.shareDescription.maxChars;
    if (value.length > max) run.warnings.push(`${social} pk ${media?.pk}: fallback_description_${lang} is cut to ${max} characters`);
    return value.slice(0, max);
  };
  const input = {
    name: text(o.platform_name),
    address: cleanRichText(wagtailRichText(text(o.address), refs)),
    contacts: cleanRichText(wagtailRichText(text(o.contacts), refs)),
    facebook: text(m.facebook),
    twitter: text(m.twitter),
    github: text(m.github),
    shareDescription: { en: description('en'), de: description('de') },
  };
  const errors = checkPlatformSettings(input);
  const field = Object.keys(errors)[0];
  // An error names the row its field came from.
  const culprit = ['name', 'address', 'contacts'].includes(field) ? (org ?? media) : (media ?? org);
  if (field && culprit) run.fail(culprit, firstError(errors) ?? field);
  await savePlatformSettings(run.tx, input, image?.path ?? null);
  if (media) for (const field of ['instagram', 'mastodon', 'linkedin']) run.lost(social, `${field} (the footer links Facebook, X and GitHub)`, m[field]);
  if (org) run.imported(organisation);
  if (media) run.imported(social);
}

const FIGURE_KINDS: Record<string, string> = { text: 'number', testimonial: 'testimonial', image: 'picture' };

/**
 * a+'s landing page figures (`landingpage.StatisticsItem`) become the start page's figures: a text
 * stat a number with its caption, a testimonial its quote, person and portrait, an image a picture
 * (its description in the other language, else "Image", where a+ had none). A row Allmende's rule
 * refuses (a+ allows every text blank) is counted under "cannot place" with the rule's message.
 */
async function importFigures({ run, media }: Ctx) {
  const model = 'landingpage.statisticsitem';
  for await (const row of run.rows(model)) {
    const f = row.fields;
    const kind = FIGURE_KINDS[text(f.item_type)] ?? text(f.item_type);
    const per = (name: string) => ({ en: text(f[`${name}_en`]), de: text(f[`${name}_de`]) });
    const image = await media.file(kind === 'testimonial' ? f.person_image : f.image, row);
    const alt = per('image_alt_text');
    const input = {
      kind,
      weight: String(Math.min(Number(f.order) || 0, 9999)),
      figure: per('header'),
      caption: per('subheader'),
      quote: per('quote'),
      personName: text(f.person_name),
      personDescription: per('person_description'),
      imageAlt: kind === 'picture' ? { en: alt.en || alt.de || 'Image', de: alt.de || alt.en || 'Bild' } : alt,
    };
    const { values, errors } = checkFigure(input, image !== null);
    if (!values) {
      run.cannotPlace(model, `a figure Allmende refuses (${firstError(errors)})`);
      continue;
    }
    await saveFigure(run.tx, null, values, image);
    if (kind !== 'testimonial') run.lost(model, 'person_image (a number or picture shows no portrait)', f.person_image);
    run.imported(model);
  }
}
