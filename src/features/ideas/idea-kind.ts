import { asc, eq } from 'drizzle-orm';
import { ITEM_SEGMENTS, ideaPath } from '../../core/urls.js';
import { categories, modules, organisations, projects } from '../../db/schema/index.js';
import type { ContentTypeOfModule } from '../../core/modules/registry.js';
import type { IdeaKind } from '../idealike/kinds.js';
import { ideaContentTypeOf } from '../idealike/content-type.js';
import { canAddIdea } from '../idealike/rules.js';
import { ideaLabels, ideas } from './schema.js';

/** Ideas themselves (Brainstorming, Idea Challenge): the idea-like kind of the ideas' tables. */
export const IDEA_KIND: IdeaKind = { kind: 'idea', table: ideas, labels: ideaLabels, segment: ITEM_SEGMENTS.idea, extraColumns: [] };

/** Ideas as content. */
export const ideaContentType: ContentTypeOfModule = {
  ...ideaContentTypeOf(IDEA_KIND, { id: 4, appLabel: 'a4_candy_ideas', model: 'idea' }, { one: { en: 'reported idea', de: 'gemeldete Idee' }, many: { en: 'reported ideas', de: 'gemeldete Ideen' } }),
  // The app adds ideas: its "add" button asks add_idea of any module, as adhocracy+'s app API does.
  appCanAdd: (c) => canAddIdea(c, IDEA_KIND.kind),
  // GAP (issue 33): "Download my data" holds the user's ideas; map ideas and proposals are not in it yet.
  personalData: async (db, userId, image) => {
    const rows = await db
      .select({ idea: ideas, module: modules.name, project: projects.name, org: organisations.slug, category: categories.name })
      .from(ideas)
      .innerJoin(modules, eq(modules.id, ideas.moduleId))
      .innerJoin(projects, eq(projects.id, modules.projectId))
      .innerJoin(organisations, eq(organisations.id, projects.organisationId))
      .leftJoin(categories, eq(categories.id, ideas.categoryId))
      .where(eq(ideas.creatorId, userId))
      .orderBy(asc(ideas.id));
    const records = rows.map(({ idea, module, project, org, category }) => ({
      id: idea.id,
      url: ideaPath(org, idea.created, idea.id),
      project,
      module,
      name: idea.name,
      description: idea.description,
      category,
      image: image('ideas', idea.id, idea.image),
      image_copyright: idea.imageCopyright,
      moderator_status: idea.moderatorStatus,
      created: idea.created,
      modified: idea.modified,
    }));
    return { file: 'ideas.json', records };
  },
};

