import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type ContentKind, reports, users } from '../../db/schema/index.js';

export interface ReportRow {
  objectPk: number;
  description: string;
  created: Date;
  username: string;
}

/** The reports on some objects of one kind, oldest first, with their reporters' names, in one statement. */
export async function loadReportsOf(db: DbOrTx, kind: ContentKind, ids: number[]): Promise<Map<number, ReportRow[]>> {
  const byObject = new Map<number, ReportRow[]>();
  if (!ids.length) return byObject;
  const rows = await db
    .select({ objectPk: reports.objectPk, description: reports.description, created: reports.created, username: users.username })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.creatorId))
    .where(and(eq(reports.contentType, kind), inArray(reports.objectPk, ids)))
    .orderBy(asc(reports.created), asc(reports.id));
  for (const row of rows) byObject.set(row.objectPk, [...(byObject.get(row.objectPk) ?? []), row]);
  return byObject;
}
