import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Tx } from '../../db/client.js';
import { categories, modules } from '../../db/schema/index.js';
import { liveQuestions } from './schema.js';
import { FixtureDateTime, FixtureError, FixtureId, fixtureKind, strictRecord } from '../moduletypes/fixtures.js';

/** The Interactive Event's loaddata kinds (docs/fixtures.md): affiliations and live questions, with their ids. */

/** An Interactive Event's module (blueprint_type IE), or a refusal naming the record. */
async function requireEventModule(tx: Tx, moduleId: number, where: string): Promise<void> {
  const [module] = await tx.select({ blueprintType: modules.blueprintType }).from(modules).where(eq(modules.id, moduleId));
  if (!module) throw new FixtureError(`${where}.module: no module ${moduleId}`);
  if (module.blueprintType !== 'IE') throw new FixtureError(`${where}.module: module ${moduleId} is not an Interactive Event (blueprint_type IE)`);
}

/** An affiliation (adhocracy+ keeps them as the module's categories). */
const affiliationKind = fixtureKind({
  name: 'affiliations',
  record: Type.Object({ id: FixtureId, module: FixtureId, name: Type.String({ minLength: 1, maxLength: 120 }) }, strictRecord),
  tables: ['categories'],
  load: async ({ tx }, records) => {
    for (const [i, a] of records.entries()) {
      await requireEventModule(tx, a.module, `affiliations[${i}]`);
      await tx.insert(categories).values({ id: a.id, moduleId: a.module, name: a.name });
    }
  },
});

/** A live question (anonymous: no creator). */
const liveQuestionKind = fixtureKind({
  name: 'live_questions',
  record: Type.Object(
    {
      id: FixtureId,
      module: FixtureId,
      text: Type.String({ minLength: 1, maxLength: 1000 }),
      affiliation: Type.Union([FixtureId, Type.Null()]),
      is_hidden: Type.Optional(Type.Boolean()),
      is_answered: Type.Optional(Type.Boolean()),
      is_on_shortlist: Type.Optional(Type.Boolean()),
      is_live: Type.Optional(Type.Boolean()),
      created: Type.Optional(FixtureDateTime),
    },
    strictRecord,
  ),
  tables: ['live_questions'],
  load: async ({ tx }, records) => {
    for (const [i, q] of records.entries()) {
      const where = `live_questions[${i}]`;
      await requireEventModule(tx, q.module, where);
      if (q.affiliation !== null) {
        const [affiliation] = await tx.select({ id: categories.id }).from(categories).where(and(eq(categories.id, q.affiliation), eq(categories.moduleId, q.module)));
        if (!affiliation) throw new FixtureError(`${where}.affiliation: no affiliation ${q.affiliation} in module ${q.module}`);
      }
      await tx.insert(liveQuestions).values({
        id: q.id,
        moduleId: q.module,
        text: q.text,
        categoryId: q.affiliation,
        isHidden: q.is_hidden ?? false,
        isAnswered: q.is_answered ?? false,
        isOnShortlist: q.is_on_shortlist ?? false,
        isLive: q.is_live ?? false,
        ...(q.created ? { created: new Date(q.created) } : {}),
      });
    }
  },
});

export const liveEventFixtures = [affiliationKind, liveQuestionKind];
