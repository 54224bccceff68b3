import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { categories, labels, modules, users } from '../../db/schema/index.js';
import { ideas } from './schema.js';
import { FixtureDateTime, FixtureError, FixtureId, fixtureKind, requireRow, strictRecord } from '../moduletypes/fixtures.js';
import { createIdea } from '../idealike/services.js';
import { IDEA_KIND } from './idea-kind.js';

const date = (value: string | null | undefined) => (value ? new Date(value) : value === null ? null : undefined);

/** loaddata's `ideas` (docs/fixtures.md): ids kept; category and labels of the idea's module; adhocracy+'s slug kept for old links. */
export const ideaFixtures = fixtureKind({
  name: 'ideas',
  record: Type.Object(
    {
      id: FixtureId,
      module: FixtureId,
      creator: FixtureId,
      name: Type.String({ minLength: 1, maxLength: 120 }),
      description: Type.String(),
      category: Type.Optional(Type.Union([FixtureId, Type.Null()])),
      labels: Type.Optional(Type.Array(FixtureId)),
      /** The slug adhocracy+ gave the idea (its `slug` field): `/<org>/ideas/<slug>/` keeps finding it after a rename. */
      slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[-a-z0-9_]+$' })),
      created: Type.Optional(FixtureDateTime),
      modified: Type.Optional(Type.Union([FixtureDateTime, Type.Null()])),
    },
    strictRecord,
  ),
  tables: ['ideas'],
  load: async ({ tx }, records) => {
    for (const [i, idea] of records.entries()) {
      const where = `ideas[${i}]`;
      await requireRow(tx, modules, idea.module, `${where}.module`, 'module');
      await requireRow(tx, users, idea.creator, `${where}.creator`, 'user');
      if (idea.category) {
        const [category] = await tx
          .select({ id: categories.id })
          .from(categories)
          .where(and(eq(categories.id, idea.category), eq(categories.moduleId, idea.module)));
        if (!category) throw new FixtureError(`${where}.category: no category ${idea.category} in module ${idea.module}`);
      }
      for (const [j, labelId] of (idea.labels ?? []).entries()) {
        const [label] = await tx.select({ id: labels.id }).from(labels).where(and(eq(labels.id, labelId), eq(labels.moduleId, idea.module)));
        if (!label) throw new FixtureError(`${where}.labels[${j}]: no label ${labelId} in module ${idea.module}`);
      }
      if (idea.slug) {
        const [clash] = await tx.select({ id: ideas.id }).from(ideas).where(eq(ideas.legacySlug, idea.slug));
        if (clash) throw new FixtureError(`${where}.slug: "${idea.slug}" belongs to idea ${clash.id} already`);
      }
      await createIdea(tx, {
        id: idea.id,
        moduleId: idea.module,
        creatorId: idea.creator,
        name: idea.name,
        description: idea.description,
        categoryId: idea.category ?? null,
        labelIds: idea.labels ?? [],
        legacySlug: idea.slug ?? null,
        created: date(idea.created) ?? undefined,
        modified: date(idea.modified) ?? null,
      }, IDEA_KIND);
    }
  },
});
