import { and, eq } from 'drizzle-orm';
import { type TProperties, Type } from 'typebox';
import { categories, labels, modules, users } from '../../db/schema/index.js';
import { createIdea } from '../idealike/services.js';
import { FixtureDateTime, FixtureError, FixtureId, fixtureKind, type FixtureKind, type FixtureModuleFields, requireRow, strictRecord } from '../moduletypes/fixtures.js';
import { loadArea, type PlaceKind } from './queries.js';
import { pointError } from './rules.js';
import { parseArea } from '../places/rules.js';

/** A map module's `area` in loaddata's `modules` records: a GeoJSON FeatureCollection of polygons (or null). */
export const AREA_FIXTURE_FIELDS: FixtureModuleFields = {
  fields: { area: Type.Optional(Type.Union([Type.Null(), Type.Unknown()])) },
  columns: (record, where) => {
    if (record.area === undefined || record.area === null) return {};
    const area = parseArea(record.area);
    if ('error' in area) throw new FixtureError(`${where}.area: ${area.error}`);
    return { area: area.area };
  },
};

/** The fields every record of a kind with a place has: the idea's, then `point` (a GeoJSON Feature with a Point) and `point_label`. */
const PLACED_FIELDS = {
  id: FixtureId,
  module: FixtureId,
  creator: FixtureId,
  name: Type.String({ minLength: 1, maxLength: 120 }),
  description: Type.String({ minLength: 1 }),
  category: Type.Optional(Type.Union([FixtureId, Type.Null()])),
  labels: Type.Optional(Type.Array(FixtureId)),
  point: Type.Unknown({ description: 'a GeoJSON Feature with a Point geometry, [lng, lat]' }),
  point_label: Type.Optional(Type.String({ maxLength: 255 })),
  created: Type.Optional(FixtureDateTime),
  modified: Type.Optional(Type.Union([FixtureDateTime, Type.Null()])),
};

const date = (value: string | null | undefined) => (value ? new Date(value) : undefined);

/**
 * The loaddata kind of items with a place (`map_ideas`, `proposals`): ids kept, category and labels
 * of the item's module, the point checked against the module's area (refused naming `name[i].point`).
 * `more` adds a kind's own fields and their values for the create statement.
 */
export function placedFixtureKind<P extends TProperties>(name: string, table: string, kind: PlaceKind, more: P, extra: (record: Record<string, unknown>) => Record<string, unknown>): FixtureKind {
  const record = Type.Object({ ...PLACED_FIELDS, ...more }, strictRecord);
  return fixtureKind({
    name,
    record,
    tables: [table],
    load: async ({ tx }, records) => {
      for (const [i, r] of records.entries()) {
        const item = r as unknown as Record<string, unknown> & { id: number; module: number; creator: number; name: string; description: string; category?: number | null; labels?: number[]; point_label?: string; created?: string; modified?: string | null };
        const where = `${name}[${i}]`;
        await requireRow(tx, modules, item.module, `${where}.module`, 'module');
        await requireRow(tx, users, item.creator, `${where}.creator`, 'user');
        if (item.category) {
          const [category] = await tx.select({ id: categories.id }).from(categories).where(and(eq(categories.id, item.category), eq(categories.moduleId, item.module)));
          if (!category) throw new FixtureError(`${where}.category: no category ${item.category} in module ${item.module}`);
        }
        for (const [j, labelId] of (item.labels ?? []).entries()) {
          const [label] = await tx.select({ id: labels.id }).from(labels).where(and(eq(labels.id, labelId), eq(labels.moduleId, item.module)));
          if (!label) throw new FixtureError(`${where}.labels[${j}]: no label ${labelId} in module ${item.module}`);
        }
        const checked = pointError(item.point, await loadArea(tx, item.module));
        if (checked.error !== null) throw new FixtureError(`${where}.point: ${checked.error}`);
        await createIdea(
          tx,
          {
            id: item.id,
            moduleId: item.module,
            creatorId: item.creator,
            name: item.name,
            description: item.description,
            categoryId: item.category ?? null,
            labelIds: item.labels ?? [],
            created: date(item.created),
            modified: date(item.modified) ?? null,
            extra: { point: JSON.stringify(checked.point), point_label: item.point_label ?? '', ...extra(item) },
          },
          kind,
        );
      }
    },
  });
}
