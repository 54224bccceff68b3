import type { Tx } from '../../db/client.js';
import type { ContentKind } from '../../db/schema/index.js';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ideaColumns, IdeaLabelsTable, IdeaTable } from './columns.js';
import type { IdeaWords } from './words.js';

/**
 * An idea-like kind of item: ideas, and the kinds that extend them (map ideas, proposals). Their
 * tables share the idea columns (`ideaColumns` in ./columns.ts), so the idea queries,
 * services, rules, list and pages work over any of them, given its kind.
 */
export interface IdeaKind {
  /** The content kind (comments, ratings, reports, actions and phase features name it). */
  kind: ContentKind;
  /**
   * The kind's table, seen through its idea columns. Map ideas and proposals have the same columns
   * under the same names plus their own, so the statements built from this object are theirs: only
   * the table's name differs at runtime (see `asIdeaTable`).
   */
  table: IdeaTable;
  labels: IdeaLabelsTable;
  /** What its pages call the items, where they are not ideas (./words.ts). */
  words?: IdeaWords;
  /** The URL segment of the items' pages: `/<org>/<segment>/<yyyy>-<pk>/`. */
  segment: string;
  /** Further columns the create statement fills, beyond the idea columns: SQL name and type, and the SQL value when none is given. */
  extraColumns: { name: string; type: string; default?: string }[];
  /** The items among `ids` that others than `userId` took part in beyond comments and ratings (supports, votes): kept when the author's account goes. */
  takenPartIn?: (tx: Tx, userId: number, ids: number[]) => Promise<number[]>;
}

/**
 * A table that has every idea column (and more) as the idea code sees it. The cast is sound for
 * the tables built from `ideaColumns` and `labelLinks`; it keeps drizzle's column types of ideas.
 */
export const asIdeaTable = (table: PgTable & Record<keyof ReturnType<typeof ideaColumns>, AnyPgColumn>): IdeaTable => table as unknown as IdeaTable;
export const asIdeaLabels = (table: PgTable & Record<'ideaId' | 'labelId', AnyPgColumn>): IdeaLabelsTable => table as unknown as IdeaLabelsTable;
