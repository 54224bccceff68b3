import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import type { ContentKind } from '../../db/schema/index.js';
import { AplusImportError, type DumpRow, stagedRows } from './dump.js';

/** What became of one a+ model's rows. */
export interface ModelResult {
  found: number;
  imported: number;
  /** Rows the import could not place, by reason. */
  cannotPlace: Record<string, number>;
  /** Why the whole model is left out (skipped on purpose, or no home yet). */
  skipped?: { kind: 'on purpose' | 'no home yet' | 'unknown model'; reason: string };
  /** Fields with a value that have no column (yet), with how many rows had one. */
  fieldsLost?: Record<string, number>;
}

/** The a+ content types Allmende has a kind for (comments, ratings, reports and actions point at them). */
export const CONTENT_KIND_OF: Record<string, ContentKind> = {
  'a4projects.project': 'project',
  'a4modules.module': 'module',
  'a4phases.phase': 'phase',
  'a4_candy_ideas.idea': 'idea',
  'a4_candy_mapideas.mapidea': 'mapidea',
  'a4_candy_budgeting.proposal': 'proposal',
  'a4polls.poll': 'poll',
  'a4_candy_documents.chapter': 'chapter',
  'a4_candy_documents.paragraph': 'paragraph',
  'a4_candy_debate.subject': 'subject',
  'a4_candy_topicprio.topic': 'topic',
  'a4_candy_interactive_events.livequestion': 'livequestion',
  'a4comments.comment': 'comment',
  'a4ratings.rating': 'rating',
  'a4reports.report': 'report',
  'a4_candy_moderatorfeedback.moderatorcommentfeedback': 'moderatorcommentfeedback',
  'a4_candy_offlineevents.offlineevent': 'offlineevent',
};

type Row = Record<string, unknown>;
/** A statement that inserts a batch of rows given as values (see `copiedFromDump`). */
export type Statement = (values: Row[]) => SQL;

/**
 * `INSERT INTO t (columns) SELECT columns FROM jsonb_populate_recordset(NULL::t, $1)`: the rows as
 * one JSON array, keyed by column name; a column no row names keeps its default.
 */
function insertStatement(table: PgTable, rows: Row[]) {
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  const props = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const names = props.map((prop) => {
    const column = columns[prop];
    if (!column) throw new Error(`${getTableName(table)} has no column ${prop}`);
    return column.name;
  });
  const json = JSON.stringify(rows.map((row) => Object.fromEntries(props.map((prop, i) => [names[i], row[prop] ?? null]))));
  const list = sql.raw(names.map((name) => `"${name}"`).join(', '));
  const name = sql.raw(`"${getTableName(table)}"`);
  return sql`INSERT INTO ${name} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::${name}, ${json}::jsonb)`;
}

/**
 * An insert for the large models: the references the import resolved (`resolved`, per row with the
 * staged record's `seq`) travel as JSON; the other columns are copied from the staged record in the
 * database (`copied`: column → SQL over `r.fields`), so the bulk of each row never passes through
 * JavaScript.
 */
export function copiedFromDump(table: string, resolved: Record<string, string>, copied: Record<string, string>): Statement {
  const resolvedNames = Object.keys(resolved);
  const columns = [...resolvedNames, ...Object.keys(copied)].map((name) => `"${name}"`).join(', ');
  const select = [...resolvedNames.map((name) => `x."${name}"`), ...Object.values(copied)].join(', ');
  const record = ['seq int', ...resolvedNames.map((name) => `"${name}" ${resolved[name]}`)].join(', ');
  return (values) =>
    sql`INSERT INTO ${sql.raw(`"${table}"`)} (${sql.raw(columns)}) SELECT ${sql.raw(select)} FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS x(${sql.raw(record)}) JOIN aplus_rows r ON r.seq = x.seq`;
}

/** Maps a database error of a row to one line (the row's model and pk are added by the caller). */
function databaseDetail(error: unknown): string {
  const e = error as { message?: string; detail?: string; cause?: { message?: string; detail?: string } };
  const cause = e.cause ?? e;
  return cause.detail ?? cause.message ?? String(error);
}

/**
 * The state of one import: the dump's counts, the results per model, and the ids placed so far
 * (a reference to a row that was not placed is found without asking the database).
 */
export class ImportRun {
  readonly results = new Map<string, ModelResult>();
  /** Username → id (natural-foreign dumps name users by username). */
  readonly usernames = new Map<string, number>();
  /** Content type pk → `app_label.model` (plain dumps name content types by pk). */
  readonly contentTypes = new Map<number, string>();
  /** Ids placed, per Allmende kind (`user`, `organisation`, `project`, `module`, `category`, `label`, and the content kinds). */
  readonly placed = new Map<string, Set<number>>();
  readonly warnings: string[] = [];

  constructor(
    readonly tx: Tx,
    readonly found: Map<string, number>,
    private readonly onRow?: () => void,
  ) {}

  result(model: string): ModelResult {
    let result = this.results.get(model);
    if (!result) {
      result = { found: this.found.get(model) ?? 0, imported: 0, cannotPlace: {} };
      this.results.set(model, result);
    }
    return result;
  }

  /** A row imported by a statement of its own (one a+ row, several Allmende rows or none). */
  imported(model: string) {
    this.result(model).imported++;
    this.onRow?.();
  }

  cannotPlace(model: string, reason: string) {
    const result = this.result(model);
    result.cannotPlace[reason] = (result.cannotPlace[reason] ?? 0) + 1;
    this.onRow?.();
  }

  lost(model: string, field: string, value: unknown) {
    if (value === null || value === undefined || value === '' || value === false || (typeof value === 'object' && !Object.keys(value).length)) return;
    const result = this.result(model);
    result.fieldsLost ??= {};
    result.fieldsLost[field] = (result.fieldsLost[field] ?? 0) + 1;
  }

  ids(kind: string): Set<number> {
    let set = this.placed.get(kind);
    if (!set) this.placed.set(kind, (set = new Set()));
    return set;
  }

  has(kind: string, id: number | null | undefined): id is number {
    return id !== null && id !== undefined && this.ids(kind).has(id);
  }

  rows(model: string, only?: string[]): AsyncGenerator<DumpRow> {
    this.result(model);
    return stagedRows(this.tx, model, only);
  }

  /** A plain foreign key (a pk, as number or string); null when empty. */
  fk(value: unknown): number | null {
    if (value === null || value === undefined || value === '') return null;
    const n = Number(Array.isArray(value) && value.length === 1 ? value[0] : value);
    return Number.isInteger(n) ? n : null;
  }

  /** A user reference: a pk (plain dump) or `[username]` (natural-foreign dump); undefined when it names no imported user. */
  user(value: unknown): number | null | undefined {
    if (value === null || value === undefined) return null;
    if (Array.isArray(value)) return this.usernames.get(String(value[0]));
    const id = this.fk(value);
    return id !== null && this.has('user', id) ? id : undefined;
  }

  /** A content type: a pk (plain dump) or `[app_label, model]` (natural-foreign dump), as `app_label.model`. */
  contentType(value: unknown): string | null {
    if (Array.isArray(value)) return `${String(value[0])}.${String(value[1])}`.toLowerCase();
    const id = this.fk(value);
    return id === null ? null : (this.contentTypes.get(id) ?? null);
  }

  fail(row: DumpRow, message: string): never {
    throw new AplusImportError(`${row.model} pk ${row.pk}: ${message}`);
  }

  /** A required user reference, or the row stops the import. */
  requireUser(row: DumpRow, field: string): number {
    const id = this.user(row.fields[field]);
    if (id === null || id === undefined) this.fail(row, `${field} ${JSON.stringify(row.fields[field])} is not a user of the dump`);
    return id;
  }

  /** A required reference to an imported row of `kind`, or the row stops the import. */
  require(row: DumpRow, field: string, kind: string): number {
    const id = this.fk(row.fields[field]);
    if (!this.has(kind, id)) this.fail(row, `${field} ${JSON.stringify(row.fields[field])} is not a ${kind} of the dump`);
    return id;
  }

  /**
   * Inserts rows in batches, each batch one statement (the rows travel as one JSON parameter that
   * the database unpacks: no per-value binding) in a savepoint: when the database refuses one, the
   * batch is tried row by row to name the row that breaks a rule.
   */
  async insert(model: string, table: PgTable | Statement, rows: { row: DumpRow; values: Row }[], count = true): Promise<void> {
    if (!rows.length) return;
    const statement = typeof table === 'function' ? table : (values: Row[]) => insertStatement(table, values);
    try {
      await this.tx.transaction(async (savepoint) => {
        await savepoint.execute(statement(rows.map((r) => r.values)));
      });
    } catch (error) {
      if (rows.length === 1) this.fail(rows[0].row, databaseDetail(error));
      for (const one of rows) await this.insert(model, statement, [one], false);
      throw error;
    }
    if (!count) return;
    this.result(model).imported += rows.length;
    for (let i = 0; i < rows.length; i++) this.onRow?.();
  }

  /** Collects rows and inserts them a batch at a time. */
  batcher(model: string, table: PgTable | Statement, size = 500) {
    let pending: { row: DumpRow; values: Row }[] = [];
    return {
      add: async (row: DumpRow, values: Row) => {
        pending.push({ row, values });
        if (pending.length >= size) {
          const batch = pending;
          pending = [];
          await this.insert(model, table, batch);
        }
      },
      flush: async () => {
        const batch = pending;
        pending = [];
        await this.insert(model, table, batch);
      },
    };
  }

  /** Moves every id sequence past the largest id, so that the platform's next rows get new ids. */
  async syncSequences(tables: string[]) {
    for (const table of tables) {
      await this.tx.execute(sql.raw(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT max(id) FROM "${table}"), 0) + 1, false)`));
    }
  }
}

export const text = (value: unknown, max?: number) => {
  const s = value === null || value === undefined ? '' : String(value);
  return max ? s.slice(0, max) : s;
};
export const date = (value: unknown) => (typeof value === 'string' && value ? new Date(value) : null);
export const bool = (value: unknown) => value === true;
