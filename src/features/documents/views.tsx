import type { JSX } from 'preact';
import { type Lang, t } from '../../i18n/index.js';
import { RichText } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { Checkbox, Input, RICH_TEXT_SCRIPTS, TextArea } from '../../web/controls.js';
import { CsrfField, Layout } from '../../web/layout.js';
import type { FieldErrors } from '../../http/errors.js';
import { modulePath } from '../../core/urls.js';
import type { ItemModule } from '../moduletypes/items.js';
import { ItemPageFrame, ModuleCrumbs } from '../moduletypes/item-views.js';
import type { ChapterForm } from './editor.js';
import { chapterPath, type DocumentChapter, type DocumentParagraph, documentEditPath, paragraphPath } from './queries.js';
import { DOCUMENT_LIMITS } from './rules.js';
import { figureText } from '../../web/page-keeping.js';

/** A paragraph's heading: its name, or its place in the chapter when it has none. */
const paragraphTitle = (lang: Lang, paragraph: { name: string }, index: number) => paragraph.name || t(lang, 'Paragraph %(n)s', { n: index + 1 });


/** The table of contents (§7.4): every chapter and its paragraphs, each linked to its page by name. */
export function TableOfContents({ lang, orgSlug, chapters, current }: { lang: Lang; orgSlug: string; chapters: DocumentChapter[]; current?: number }) {
  return (
    <nav aria-labelledby="toc-heading" class="table-of-contents">
      <h2 id="toc-heading">{t(lang, 'Table of contents')}</h2>
      <ol>
        {chapters.map((chapter) => (
          <li>
            <a href={chapterPath(orgSlug, chapter.id)} aria-current={chapter.id === current ? 'page' : undefined}>
              {chapter.name}
            </a>
            {chapter.paragraphs.length > 0 && (
              <ol>
                {chapter.paragraphs.map((paragraph, i) => (
                  <li>
                    <a href={paragraphPath(orgSlug, paragraph.id)}>{paragraphTitle(lang, paragraph, i)}</a>
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A paragraph in its chapter: its name (linked to its page), its text, and the way to its comments. */
function ParagraphBlock({ page, orgSlug, paragraph, index, level }: { page: PageContext; orgSlug: string; paragraph: DocumentParagraph; index: number; level: 3 | 2 }) {
  const { lang } = page;
  const Heading = `h${level}` as 'h2';
  const title = paragraphTitle(lang, paragraph, index);
  return (
    <section class="paragraph" id={`paragraph-${paragraph.id}`} aria-labelledby={`paragraph-${paragraph.id}-heading`}>
      <Heading id={`paragraph-${paragraph.id}-heading`}>
        <a href={paragraphPath(orgSlug, paragraph.id)}>{title}</a>
      </Heading>
      <RichText html={paragraph.text} />
      <p>
        <a href={`${paragraphPath(orgSlug, paragraph.id)}#comments-heading`}>
          {figureText(page, 'commentsOrNone', `paragraph:${paragraph.id}`, paragraph.commentCount)}
          <span class="visually-hidden"> ({t(lang, 'Comments on “%(name)s”: %(count)s', { name: title, count: figureText(page, 'commentNumber', `paragraph:${paragraph.id}`, paragraph.commentCount) })})</span>
        </a>
      </p>
    </section>
  );
}

interface DocumentData {
  orgSlug: string;
  chapters: DocumentChapter[];
  /** The editor's address, for those who may edit the text. */
  edit: string | null;
}

/** The module page's part (§7.4): the table of contents and the whole text, each chapter and paragraph linked to its page. */
export function DocumentContent({ page, data }: { page: PageContext; data: DocumentData }) {
  const { lang } = page;
  return (
    <section aria-labelledby="document-heading" class="document">
      <h2 id="document-heading">{t(lang, 'Text')}</h2>
      {data.edit && (
        <p>
          <a class="btn btn-secondary" href={data.edit}>
            {t(lang, 'Edit the text')}
          </a>
        </p>
      )}
      {data.chapters.length === 0 ? (
        <p>{t(lang, 'The text has no chapters yet.')}</p>
      ) : (
        <>
          <TableOfContents lang={lang} orgSlug={data.orgSlug} chapters={data.chapters} />
          {data.chapters.map((chapter) => (
            <article id={`chapter-${chapter.id}`} aria-labelledby={`chapter-${chapter.id}-heading`} class="chapter">
              <h2 id={`chapter-${chapter.id}-heading`}>
                <a href={chapterPath(data.orgSlug, chapter.id)}>{chapter.name}</a>
              </h2>
              <p>
                <a href={`${chapterPath(data.orgSlug, chapter.id)}#comments-heading`}>
                  {t(lang, 'Comments on this chapter')}: {figureText(page, 'commentsOrNone', `chapter:${chapter.id}`, chapter.commentCount)}
                  <span class="visually-hidden"> ({chapter.name})</span>
                </a>
              </p>
              {chapter.paragraphs.map((paragraph, i) => (
                <ParagraphBlock page={page} orgSlug={data.orgSlug} paragraph={paragraph} index={i} level={3} />
              ))}
            </article>
          ))}
        </>
      )}
    </section>
  );
}

interface ChapterPageData {
  orgSlug: string;
  module: ItemModule;
  chapters: DocumentChapter[];
  chapter: DocumentChapter;
  edit: string | null;
  thread: JSX.Element;
}

/** A chapter's page (§7.4): the table of contents, the chapter's paragraphs, the way to the previous and next chapter, and the chapter's own comments. */
export function ChapterPage({ page, data }: { page: PageContext; data: ChapterPageData }) {
  const { lang } = page;
  const { chapters, chapter, orgSlug } = data;
  const index = chapters.findIndex((c) => c.id === chapter.id);
  const previous = chapters[index - 1];
  const next = chapters[index + 1];
  return (
    <ItemPageFrame page={page} orgSlug={orgSlug} module={data.module} title={chapter.name} thread={data.thread}>
      {data.edit && (
        <p>
          <a href={data.edit}>{t(lang, 'Edit the text')}</a>
        </p>
      )}
      {chapters.length > 1 && <TableOfContents lang={lang} orgSlug={orgSlug} chapters={chapters} current={chapter.id} />}
      {chapter.paragraphs.map((paragraph, i) => (
        <ParagraphBlock page={page} orgSlug={orgSlug} paragraph={paragraph} index={i} level={2} />
      ))}
      {(previous || next) && (
        <nav class="pager" aria-label={t(lang, 'Chapters')}>
          {previous && (
            <a href={chapterPath(orgSlug, previous.id)} rel="prev">
              {t(lang, 'Previous chapter')}: {previous.name}
            </a>
          )}{' '}
          {next && (
            <a href={chapterPath(orgSlug, next.id)} rel="next">
              {t(lang, 'Next chapter')}: {next.name}
            </a>
          )}
        </nav>
      )}
    </ItemPageFrame>
  );
}

interface ParagraphPageData {
  orgSlug: string;
  module: ItemModule;
  chapter: DocumentChapter;
  paragraph: DocumentParagraph;
  index: number;
  thread: JSX.Element;
}

/** A paragraph's page (§7.4): its text and its comments. */
export function ParagraphPage({ page, data }: { page: PageContext; data: ParagraphPageData }) {
  const { lang } = page;
  const title = paragraphTitle(lang, data.paragraph, data.index);
  return (
    <ItemPageFrame page={page} orgSlug={data.orgSlug} module={data.module} title={title} crumbs={[{ href: chapterPath(data.orgSlug, data.chapter.id), label: data.chapter.name }]} thread={data.thread}>
      <RichText html={data.paragraph.text} />
    </ItemPageFrame>
  );
}

interface EditorData {
  orgSlug: string;
  module: ItemModule;
  form: ChapterForm[];
  errors: FieldErrors;
  /** Problems of the whole document (deletions refused), in the page's language. */
  problems: string[];
}

/** The document editor (§7.3, without a script): chapters and paragraphs with their positions and delete boxes, and empty rows for new ones. */
export function EditorPage({ page, data }: { page: PageContext; data: EditorData }) {
  const { lang } = page;
  const title = t(lang, 'Edit the text of “%(name)s”', { name: data.module.name });
  const failed = data.problems.length > 0 || Object.keys(data.errors).length > 0;
  return (
    <Layout page={page} title={title} scripts={RICH_TEXT_SCRIPTS}>
      <ModuleCrumbs lang={lang} orgSlug={data.orgSlug} module={data.module} />
      <h1>{title}</h1>
      <p>{t(lang, 'Chapters and paragraphs appear in the order of their positions. Fill in the empty rows to add a chapter or a paragraph. A chapter or paragraph with comments cannot be deleted.')}</p>
      {failed && (
        <div class="alert alert-error" role="alert">
          <p>{t(lang, 'An error occurred. Please check the data you entered.')}</p>
          {data.problems.length > 0 && (
            <ul>
              {data.problems.map((problem) => (
                <li>{problem}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <form method="post" action={documentEditPath(data.orgSlug, data.module.slug)}>
        <CsrfField page={page} />
        {data.form.map((chapter, i) => {
          const isNew = !chapter.id;
          const legend = isNew ? t(lang, 'New chapter') : t(lang, 'Chapter %(n)s: %(name)s', { n: i + 1, name: chapter.name });
          return (
            <fieldset class="chapter-editor">
              <legend>{legend}</legend>
              <input type="hidden" name={`${chapter.key}-id`} value={chapter.id} />
              <Input name={`${chapter.key}-name`} label={t(lang, 'Chapter title')} value={chapter.name} maxLength={DOCUMENT_LIMITS.chapter.maxChars} errors={data.errors[`${chapter.key}-name`]} />
              <Input name={`${chapter.key}-weight`} type="number" label={t(lang, 'Position of the chapter')} value={chapter.weight} errors={data.errors[`${chapter.key}-weight`]} />
              {!isNew && <Checkbox name={`${chapter.key}-delete`} label={t(lang, 'Delete this chapter and its paragraphs')} checked={chapter.delete} />}
              {chapter.paragraphs.map((paragraph, j) => {
                const newParagraph = !paragraph.id;
                return (
                  <fieldset class="paragraph-editor">
                    <legend>{newParagraph ? t(lang, 'New paragraph') : t(lang, 'Paragraph %(n)s', { n: j + 1 })}</legend>
                    <input type="hidden" name={`${paragraph.key}-id`} value={paragraph.id} />
                    <Input name={`${paragraph.key}-name`} label={t(lang, 'Paragraph title')} value={paragraph.name} maxLength={DOCUMENT_LIMITS.paragraph.maxChars} errors={data.errors[`${paragraph.key}-name`]} />
                    <TextArea name={`${paragraph.key}-text`} label={t(lang, 'Paragraph text')} value={paragraph.text} rows={6} richText={lang} errors={data.errors[`${paragraph.key}-text`]} />
                    <Input name={`${paragraph.key}-weight`} type="number" label={t(lang, 'Position of the paragraph')} value={paragraph.weight} errors={data.errors[`${paragraph.key}-weight`]} />
                    {!newParagraph && <Checkbox name={`${paragraph.key}-delete`} label={t(lang, 'Delete this paragraph')} checked={paragraph.delete} />}
                  </fieldset>
                );
              })}
            </fieldset>
          );
        })}
        <button type="submit">{t(lang, 'Save')}</button> <a href={modulePath(data.orgSlug, data.module.slug)}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}
