import { Type } from 'typebox';
import { subjects } from './schema.js';
import { SHARED_COMPONENTS } from '../../core/modules/registry.js';
import { moduleComponentPath } from '../../web/paths.js';
import { canAddComment } from '../comments/rules.js';
import { contentPart, dashboardPanel, type ModuleType } from '../moduletypes/contract.js';
import { handOverItems, itemCountFacts, itemsInModules, itemTarget } from '../moduletypes/items.js';
import { SUBJECT_EXPORTS } from './export.js';
import { subjectFixtures } from './fixtures.js';
import { debatePages } from './pages.js';
import { countSubjects, loadSubjects, SUBJECT_ORDERINGS, type SubjectOrdering, subjectCreatePath, subjectPath, subjectPlaces } from './queries.js';
import { canAddSubject, SUBJECT_LIMITS } from './rules.js';
import { SubjectList, SubjectPanel } from './views.js';

/**
 * Debate (DB, §9): initiators and moderators post subjects; while the debate phase runs,
 * participants discuss each subject in comments with the categories suggestion, note and question.
 */

/** The module page's list state in the address (names of their own, beside the idea list's). */
const SubjectListQuery = {
  subject_search: Type.Optional(Type.String({ maxLength: SUBJECT_LIMITS.name.maxChars })),
  subject_ordering: Type.Optional(Type.Union([Type.Literal(''), ...SUBJECT_ORDERINGS.map((o) => Type.Literal(o))])),
};

const subjectList = contentPart({
  load: async (input) => {
    if (input.module.blueprintType !== 'DB') return null;
    const search = (input.query.subject_search ?? '').trim();
    const ordering = (input.query.subject_ordering || 'name') as SubjectOrdering;
    const rows = await loadSubjects(input.db, { moduleId: input.module.id, search: search || undefined, ordering });
    const mayComment = canAddComment({ ...input.context, root: { type: 'subject' } });
    const create = canAddSubject(input.context) ? subjectCreatePath(input.orgSlug, input.module.slug) : null;
    return { orgSlug: input.orgSlug, path: input.path, subjects: rows, search, ordering, mayComment, create };
  },
  View: ({ page, data }) => <SubjectList page={page} data={data} />,
});

const subjectPanel = dashboardPanel({
  load: async (db, module, orgSlug) => ({
    subjects: await loadSubjects(db, { moduleId: module.id }),
    create: subjectCreatePath(orgSlug, module.slug),
    back: moduleComponentPath(orgSlug, module.slug, 'subject_edit'),
  }),
  View: ({ page, orgSlug, data }) => <SubjectPanel page={page} orgSlug={orgSlug} data={data} />,
});

export const debate: ModuleType = {
  blueprintType: 'DB',
  key: 'debate',
  title: { en: 'Debate', de: 'Debatte' },
  description: {
    en: 'Participants can discuss posted topics or questions. To do this, the participants comment on posted topics / questions as well as on contributions from other users.',
    de: 'Teilnehmende können gestellte Themen oder Fragen diskutieren. Dazu kommentieren sie die Themen / Fragen und die Beiträge anderer.',
  },
  offered: true,
  phases: [{ type: 'a4_candy_debate:debate', content: 'subject', features: ['comment'], name: { en: 'Debate phase', de: 'Debattierphase' }, description: { en: 'Debate subjects.', de: 'Themen debattieren.' } }],
  components: [
    SHARED_COMPONENTS.basic,
    SHARED_COMPONENTS.phases,
    {
      key: 'subject_edit',
      label: { en: 'Subjects', de: 'Themen' },
      missing: (module) => (Number(module.facts?.subjects ?? 0) > 0 ? [] : [{ field: { en: 'Subjects: at least one subject', de: 'Themen: mindestens ein Thema' } }]),
    },
  ],
  facts: itemCountFacts('subjects', countSubjects),
  dashboardPanels: { subject_edit: subjectPanel },
  tables: ['subjects'],
  tileCount: { one: { en: '%(count)s subject', de: '%(count)s Thema' }, many: { en: '%(count)s subjects', de: '%(count)s Themen' } },
  contentTypes: [
    {
      kind: 'subject',
      id: 14,
      appLabel: 'a4_candy_debate',
      model: 'subject',
      commentable: true,
      target: itemTarget(subjects),
      inModules: itemsInModules(subjects),
      onAuthorDeleted: handOverItems(subjects.creatorId),
      pages: async (db, ids) => new Map((await subjectPlaces(db, ids)).map((s) => [s.id, { path: subjectPath(s.orgSlug, s.created, s.id), name: s.name }])),
    },
  ],
  commentCategories: true,
  pageQuery: SubjectListQuery,
  content: subjectList,
  plugin: debatePages,
  exports: SUBJECT_EXPORTS,
  notifications: ['a comment on a subject reaches the project’s followers and moderators (shared actions)'],
  fixtures: [subjectFixtures],
};
