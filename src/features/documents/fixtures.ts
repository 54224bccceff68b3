import { Type } from 'typebox';
import { modules, users } from '../../db/schema/index.js';
import { chapters, paragraphs } from './schema.js';
import { FixtureId, fixtureKind, requireRow, strictRecord } from '../moduletypes/fixtures.js';

/** loaddata's `chapters` (docs/fixtures.md): ids kept; `weight` orders them (default: their place in the list). */
export const chapterFixtures = fixtureKind({
  name: 'chapters',
  record: Type.Object({ id: FixtureId, module: FixtureId, creator: FixtureId, name: Type.String({ minLength: 1, maxLength: 120 }), weight: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })) }, strictRecord),
  tables: ['chapters'],
  load: async ({ tx }, records) => {
    for (const [i, c] of records.entries()) {
      await requireRow(tx, modules, c.module, `chapters[${i}].module`, 'module');
      await requireRow(tx, users, c.creator, `chapters[${i}].creator`, 'user');
      await tx.insert(chapters).values({ id: c.id, moduleId: c.module, creatorId: c.creator, name: c.name, weight: c.weight ?? i });
    }
  },
});

/** loaddata's `paragraphs`: ids kept; `text` is rich text. */
export const paragraphFixtures = fixtureKind({
  name: 'paragraphs',
  record: Type.Object(
    { id: FixtureId, chapter: FixtureId, name: Type.String({ maxLength: 120 }), text: Type.Optional(Type.String()), weight: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })) },
    strictRecord,
  ),
  tables: ['paragraphs'],
  load: async ({ tx }, records) => {
    for (const [i, p] of records.entries()) {
      await requireRow(tx, chapters, p.chapter, `paragraphs[${i}].chapter`, 'chapter');
      await tx.insert(paragraphs).values({ id: p.id, chapterId: p.chapter, name: p.name, text: p.text ?? '', weight: p.weight ?? i });
    }
  },
});
