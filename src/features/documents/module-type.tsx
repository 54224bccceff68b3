import { eq, sql } from 'drizzle-orm';
import { chapters, paragraphs } from './schema.js';
import { t, tn } from '../../i18n/index.js';
import { type PhaseType, SHARED_COMPONENTS } from '../../core/modules/registry.js';
import { moduleCommentsFile } from '../exports/comments.js';
import { contentPart, dashboardPanel, type ModuleType } from '../moduletypes/contract.js';
import { handOverItems, itemCountFacts, itemsInModules, itemTarget, withoutAuthors } from '../moduletypes/items.js';
import { chapterFixtures, paragraphFixtures } from './fixtures.js';
import { documentPages } from './pages.js';
import { chapterPath, chapterPlaces, countChapters, documentEditPath, loadDocument, paragraphPath, paragraphPlaces } from './queries.js';
import { canEditDocument } from './rules.js';
import { DocumentContent, TableOfContents } from './views.js';

/**
 * Text Review (TR, §7): initiators and moderators write a text of chapters and paragraphs; while
 * the comment phase runs, participants comment on every chapter and paragraph, each on its own page.
 */

const phase = (type: string): PhaseType => ({
  type,
  content: 'chapter',
  features: ['comment'],
  name: { en: 'Comment phase', de: 'Kommentierphase' },
  description: { en: 'Post comments on the paragraphs of the text.', de: 'Kommentare zu den Absätzen des Textes verfassen.' },
});

/** The module page's part: the table of contents and the text; also for a module of another type that holds chapters (imported data). */
const document = contentPart({
  load: async (input) => {
    // The module page's statement says whether there are chapters (PageModule.items): none outside a text review, no statement.
    if (input.module.blueprintType !== 'TR' && !input.module.items.chapter?.length) return null;
    const chaptersOfModule = await loadDocument(input.db, input.module.id);
    const edit = input.module.blueprintType === 'TR' && canEditDocument(input.context) ? documentEditPath(input.orgSlug, input.module.slug) : null;
    return { orgSlug: input.orgSlug, chapters: chaptersOfModule, edit };
  },
  View: ({ page, data }) => <DocumentContent page={page} data={data} />,
});

/** The dashboard's "Document" component: the text's contents and the way to its editor. */
const documentPanel = dashboardPanel({
  load: async (db, module, orgSlug) => ({ chapters: await loadDocument(db, module.id), edit: documentEditPath(orgSlug, module.slug) }),
  View: ({ page, orgSlug, data }) => (
    <section aria-labelledby="document-panel-heading">
      <h2 id="document-panel-heading">{t(page.lang, 'Document')}</h2>
      <p>{tn(page.lang, 'The text has %(count)s chapter.', 'The text has %(count)s chapters.', data.chapters.length)}</p>
      {data.chapters.length > 0 && <TableOfContents lang={page.lang} orgSlug={orgSlug} chapters={data.chapters} />}
      <p>
        <a class="btn" href={data.edit}>
          {t(page.lang, 'Edit the text')}
        </a>
      </p>
    </section>
  ),
});

const DOCUMENT_COMPONENT = {
  key: 'document_settings',
  label: { en: 'Document', de: 'Dokument' },
  missing: (module: { facts?: Record<string, unknown> }) => (Number(module.facts?.chapters ?? 0) > 0 ? [] : [{ field: { en: 'Document: at least one chapter', de: 'Dokument: mindestens ein Kapitel' } }]),
};

export const textReview: ModuleType = {
  blueprintType: 'TR',
  key: 'text-review',
  title: { en: 'Text Review', de: 'Text diskutieren' },
  description: { en: 'Participants can discuss the paragraphs of a text that you added beforehand.', de: 'Teilnehmende können die Absätze eines Textes diskutieren, den Sie vorher hinzugefügt haben.' },
  offered: true,
  phases: [phase('a4_candy_documents:comment')],
  // The phase type Allmende gave text reviews before (imported data keeps it).
  otherPhases: [phase('a4_candy_documents:document')],
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases, DOCUMENT_COMPONENT],
  facts: itemCountFacts('chapters', countChapters),
  dashboardPanels: { document_settings: documentPanel },
  contentTypes: [
    {
      kind: 'chapter',
      id: 6,
      appLabel: 'a4_candy_documents',
      model: 'chapter',
      commentable: true,
      target: itemTarget(chapters),
      inModules: itemsInModules(chapters),
      onModulePage: true,
      inFeed: false,
      onAuthorDeleted: handOverItems(chapters.creatorId),
      pages: async (db, ids) => new Map((await chapterPlaces(db, ids)).map((c) => [c.id, { path: chapterPath(c.orgSlug, c.id), name: c.name }])),
    },
    {
      kind: 'paragraph',
      id: 7,
      appLabel: 'a4_candy_documents',
      model: 'paragraph',
      phaseContent: 'chapter',
      commentable: true,
      target: async (db, id) => {
        const [row] = await db.select({ moduleId: chapters.moduleId }).from(paragraphs).innerJoin(chapters, eq(chapters.id, paragraphs.chapterId)).where(eq(paragraphs.id, id));
        return row ? { moduleId: row.moduleId, creatorId: null } : null;
      },
      inModules: (moduleIds) =>
        sql`select ${paragraphs.id}, ${chapters.moduleId}, null::integer from ${paragraphs} join ${chapters} on ${chapters.id} = ${paragraphs.chapterId} where ${chapters.moduleId} in (${moduleIds})`,
      onAuthorDeleted: withoutAuthors,
      inFeed: false,
      pages: async (db, ids) => new Map((await paragraphPlaces(db, ids)).map((p) => [p.id, { path: paragraphPath(p.orgSlug, p.id), name: p.name || `${p.chapterName} (${p.id})` }])),
    },
  ],
  tables: ['chapters', 'paragraphs'],
  content: document,
  plugin: documentPages,
  exports: [
    moduleCommentsFile(async (db, moduleId) =>
      (await loadDocument(db, moduleId)).flatMap((c) => [{ type: 'chapter' as const, id: c.id }, ...c.paragraphs.map((p) => ({ type: 'paragraph' as const, id: p.id }))]),
    ),
  ],
  notifications: ['a comment on a chapter or paragraph reaches the project’s followers and moderators (shared actions)'],
  fixtures: [chapterFixtures, paragraphFixtures],
};
