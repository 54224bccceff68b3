import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { categories, labels, modules, users } from '../../db/schema/index.js';
import { FixtureDateTime, FixtureError, FixtureId, fixtureKind, requireRow, strictRecord } from '../moduletypes/fixtures.js';
import { defaultItemCreator } from '../moduletypes/items.js';
import { TOPIC_LIMITS } from './rules.js';
import { createTopic } from './services.js';

/** loaddata's `topics` (docs/fixtures.md): ids kept; category and labels of the topic's module; without a creator the organisation's first initiator wrote it. */
export const topicFixtures = fixtureKind({
  name: 'topics',
  record: Type.Object(
    {
      id: FixtureId,
      module: FixtureId,
      creator: Type.Optional(FixtureId),
      name: Type.String({ minLength: 1, maxLength: TOPIC_LIMITS.name.maxChars }),
      description: Type.Optional(Type.String()),
      category: Type.Optional(Type.Union([FixtureId, Type.Null()])),
      labels: Type.Optional(Type.Array(FixtureId)),
      created: Type.Optional(FixtureDateTime),
    },
    strictRecord,
  ),
  tables: ['topics'],
  load: async ({ tx }, records) => {
    for (const [i, r] of records.entries()) {
      const where = `topics[${i}]`;
      await requireRow(tx, modules, r.module, `${where}.module`, 'module');
      if (r.creator !== undefined) await requireRow(tx, users, r.creator, `${where}.creator`, 'user');
      const creatorId = r.creator ?? (await defaultItemCreator(tx, r.module));
      if (creatorId === null) throw new FixtureError(`${where}.creator: required (the organisation has no initiator)`);
      if (r.category) {
        const [found] = await tx.select({ id: categories.id }).from(categories).where(and(eq(categories.id, r.category), eq(categories.moduleId, r.module)));
        if (!found) throw new FixtureError(`${where}.category: no category ${r.category} in module ${r.module}`);
      }
      for (const [j, labelId] of (r.labels ?? []).entries()) {
        const [found] = await tx.select({ id: labels.id }).from(labels).where(and(eq(labels.id, labelId), eq(labels.moduleId, r.module)));
        if (!found) throw new FixtureError(`${where}.labels[${j}]: no label ${labelId} in module ${r.module}`);
      }
      await createTopic(tx, {
        id: r.id,
        moduleId: r.module,
        creatorId,
        name: r.name,
        description: r.description ?? '',
        categoryId: r.category ?? null,
        labelIds: r.labels ?? [],
        created: r.created ? new Date(r.created) : undefined,
      });
    }
  },
});
