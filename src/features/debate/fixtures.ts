import { Type } from 'typebox';
import { modules, users } from '../../db/schema/index.js';
import { FixtureDateTime, FixtureError, FixtureId, fixtureKind, requireRow, strictRecord } from '../moduletypes/fixtures.js';
import { defaultItemCreator } from '../moduletypes/items.js';
import { SUBJECT_LIMITS } from './rules.js';
import { createSubject } from './services.js';

/** loaddata's `subjects` (docs/fixtures.md): ids kept; without a creator the organisation's first initiator wrote it. */
export const subjectFixtures = fixtureKind({
  name: 'subjects',
  record: Type.Object(
    {
      id: FixtureId,
      module: FixtureId,
      creator: Type.Optional(FixtureId),
      name: Type.String({ minLength: 1, maxLength: SUBJECT_LIMITS.name.maxChars }),
      description: Type.Optional(Type.String({ maxLength: SUBJECT_LIMITS.description.maxChars })),
      created: Type.Optional(FixtureDateTime),
    },
    strictRecord,
  ),
  tables: ['subjects'],
  load: async ({ tx }, records) => {
    for (const [i, s] of records.entries()) {
      await requireRow(tx, modules, s.module, `subjects[${i}].module`, 'module');
      if (s.creator !== undefined) await requireRow(tx, users, s.creator, `subjects[${i}].creator`, 'user');
      const creatorId = s.creator ?? (await defaultItemCreator(tx, s.module));
      if (creatorId === null) throw new FixtureError(`subjects[${i}].creator: required (the organisation has no initiator)`);
      if (!s.name.trim()) throw new FixtureError(`subjects[${i}].name: blank`);
      await createSubject(tx, { id: s.id, moduleId: s.module, creatorId, name: s.name, description: s.description ?? '', created: s.created ? new Date(s.created) : undefined });
    }
  },
});
