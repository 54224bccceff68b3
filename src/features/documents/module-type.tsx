import { asc, eq, inArray } from 'drizzle-orm';
import { chapters, paragraphs } from '../../db/schema/index.js';
import { t } from '../../i18n/index.js';
import { SHARED_COMPONENTS } from '../../core/modules/registry.js';
import { contentPart, type ModuleType } from '../moduletypes/contract.js';
import { ItemThread } from '../threads/items.js';

/**
 * Text Review (TR), as far as Allmende has it so far: chapters and paragraphs are content that
 * takes comments (from imported data), shown on their module page with their discussions. Not
 * offered in the dashboard until its editor and pages are built.
 */

const document = contentPart({
  load: async (input) => {
    if (!input.module.items.chapters) return null;
    const { db } = input;
    const chapterRows = await db.select({ id: chapters.id, name: chapters.name }).from(chapters).where(eq(chapters.moduleId, input.module.id)).orderBy(asc(chapters.weight), asc(chapters.id));
    if (!chapterRows.length) return null;
    const paragraphRows = await db
      .select({ id: paragraphs.id, chapterId: paragraphs.chapterId, name: paragraphs.name })
      .from(paragraphs)
      .where(inArray(paragraphs.chapterId, chapterRows.map((c) => c.id)))
      .orderBy(asc(paragraphs.weight), asc(paragraphs.id));
    return { chapters: chapterRows.map((chapter) => ({ ...chapter, paragraphs: paragraphRows.filter((p) => p.chapterId === chapter.id) })) };
  },
  threads: (data) => data.chapters.flatMap((c) => [{ type: 'chapter' as const, id: c.id }, ...c.paragraphs.map((p) => ({ type: 'paragraph' as const, id: p.id }))]),
  View: ({ page, data, threads }) => (
    <section aria-labelledby="chapters-heading">
      <h2 id="chapters-heading">{t(page.lang, 'Chapters')}</h2>
      {data.chapters.map((chapter) => (
        <article id={`chapter-${chapter.id}`} aria-labelledby={`chapter-${chapter.id}-heading`}>
          <h3 id={`chapter-${chapter.id}-heading`}>{chapter.name}</h3>
          <ItemThread page={page} threads={threads} object={{ type: 'chapter', id: chapter.id }} />
          {chapter.paragraphs.map((paragraph) => (
            <section id={`paragraph-${paragraph.id}`} aria-labelledby={`paragraph-${paragraph.id}-heading`}>
              <h4 id={`paragraph-${paragraph.id}-heading`}>{paragraph.name || t(page.lang, 'Paragraph %(id)s', { id: paragraph.id })}</h4>
              <ItemThread page={page} threads={threads} object={{ type: 'paragraph', id: paragraph.id }} />
            </section>
          ))}
        </article>
      ))}
    </section>
  ),
});

export const textReview: ModuleType = {
  blueprintType: 'TR',
  key: 'text-review',
  title: { en: 'Text Review', de: 'Textdiskussion' },
  description: { en: 'Participants comment on a text chapter by chapter and paragraph by paragraph.', de: 'Teilnehmende kommentieren einen Text Kapitel für Kapitel und Absatz für Absatz.' },
  offered: false,
  phases: [{ type: 'a4_candy_documents:document', content: 'chapter', features: ['comment'], name: { en: 'Comment phase', de: 'Kommentarphase' }, description: { en: '', de: '' } }],
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases],
  contentTypes: [
    {
      kind: 'chapter',
      commentable: true,
      target: async (db, id) => {
        const [row] = await db.select({ moduleId: chapters.moduleId, creatorId: chapters.creatorId }).from(chapters).where(eq(chapters.id, id));
        return row ?? null;
      },
    },
    {
      kind: 'paragraph',
      phaseContent: 'chapter',
      commentable: true,
      target: async (db, id) => {
        const [row] = await db.select({ moduleId: chapters.moduleId }).from(paragraphs).innerJoin(chapters, eq(chapters.id, paragraphs.chapterId)).where(eq(paragraphs.id, id));
        return row ? { moduleId: row.moduleId, creatorId: null } : null;
      },
    },
  ],
  content: document,
};
