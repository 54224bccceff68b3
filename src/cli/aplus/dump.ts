import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { chain } from 'stream-chain';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import type { Tx } from '../../db/client.js';

/** Why an import stops: one line for the operator, naming the dump's model and pk where there is one. */
export class AplusImportError extends Error {}

/** One record of `manage.py dumpdata`: `{"model": "app.model", "pk": …, "fields": {…}}`. */
export interface DumpRow {
  model: string;
  /** The record's place in the staging table (set when read back from it). */
  seq?: number;
  pk: string;
  fields: Record<string, unknown>;
}

const BATCH = 1000;

/**
 * Streams a `dumpdata` file (a JSON array, of any size) into a temporary table of the import's
 * transaction, a record at a time: the file is never held in memory, and every later phase reads
 * the models it needs from the table in the order it needs them (the dump's order follows the
 * apps, not their references). A cut-off or damaged file stops here, before anything is written.
 * Returns the rows per model (lower-case `app_label.modelname`, as dumpdata writes it).
 */
export async function stageDump(tx: Tx, file: string, onBytes?: (read: number, total: number) => void): Promise<Map<string, number>> {
  const size = await stat(file).then(
    (info) => info.size,
    () => {
      throw new AplusImportError(`cannot read the dump ${file}`);
    },
  );
  await tx.execute(sql`CREATE TEMP TABLE aplus_rows (seq serial PRIMARY KEY, model text NOT NULL, pk text NOT NULL, fields jsonb NOT NULL) ON COMMIT DROP`);
  const counts = new Map<string, number>();
  let batch: DumpRow[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const json = JSON.stringify(batch);
    batch = [];
    await tx.execute(sql`INSERT INTO aplus_rows (model, pk, fields) SELECT model, pk, fields FROM jsonb_to_recordset(${json}::jsonb) AS x(model text, pk text, fields jsonb)`);
  };
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  let read = 0;
  input.on('data', (chunk) => {
    read += chunk.length;
    onBytes?.(read, size);
  });
  // Parser and array streamer as one function stage (no token objects between streams), whole keys
  // and strings only (no partial chunks): about half the parser's time.
  const pipeline = chain([input, streamArray.withParser({ streamKeys: false, streamValues: false })]);
  let index = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let writing: Promise<void> = Promise.resolve();
      const fail = (error: unknown) => {
        input.destroy();
        reject(error);
      };
      pipeline.on('data', ({ value }: { value: unknown }) => {
        const row = value as Partial<DumpRow> | null;
        if (!row || typeof row !== 'object' || typeof row.model !== 'string' || !/^\w+\.\w+$/.test(row.model) || typeof row.fields !== 'object' || row.fields === null) {
          return fail(new AplusImportError(`${file} is not a Django dumpdata file: record ${index} has no "model" and "fields"`));
        }
        if (row.pk === undefined || row.pk === null) {
          return fail(new AplusImportError(`${file}: ${row.model} record ${index} has no pk (a dump made with --natural-primary cannot be imported; use --natural-foreign only)`));
        }
        const model = row.model.toLowerCase();
        batch.push({ model, pk: String(row.pk), fields: row.fields });
        counts.set(model, (counts.get(model) ?? 0) + 1);
        index++;
        if (batch.length >= BATCH) {
          // The parser waits while a batch is written: memory stays at one batch.
          pipeline.pause();
          writing = writing
            .then(flush)
            .then(
              () => void pipeline.resume(),
              (error: unknown) => fail(new AplusImportError(`cannot keep the records of ${file} for the import: ${error instanceof Error ? error.message : String(error)}`)),
            );
        }
      });
      pipeline.on('error', fail);
      pipeline.on('end', () => writing.then(resolve, reject));
    });
  } catch (error) {
    if (error instanceof AplusImportError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/top-level object should be an array/i.test(message)) throw new AplusImportError(`${file} is not a Django dumpdata file (its top level is not a JSON array)`);
    throw new AplusImportError(`${file} is not complete JSON (cut off or damaged after ${index} records, near byte ${read} of ${size}: ${message}); nothing was imported`);
  }
  await flush();
  if (!index) throw new AplusImportError(`${file} holds no records`);
  if (!counts.has('a4_candy_users.user') || ![...counts.keys()].some((model) => model.startsWith('a4projects.') || model.startsWith('a4_candy_organisations.'))) {
    throw new AplusImportError(`${file} is not an adhocracy+ dump (it has no a4_candy_users.user and no a4projects/a4_candy_organisations records)`);
  }
  await tx.execute(sql`CREATE INDEX aplus_rows_model ON aplus_rows (model, seq)`);
  await tx.execute(sql`CREATE INDEX aplus_rows_model_pk ON aplus_rows (model, pk)`);
  await tx.execute(sql`ANALYZE aplus_rows`);
  return counts;
}

/**
 * The staged records of one model, in the dump's order, a batch per statement. With `only`, just
 * those fields are read (the rest stays in the database, for a statement that copies it from there).
 */
export async function* stagedRows(tx: Tx, model: string, only?: string[]): AsyncGenerator<DumpRow> {
  const fields = only ? sql.raw(`jsonb_build_object(${only.map((key) => `'${key.replace(/\W/g, '')}', fields->'${key.replace(/\W/g, '')}'`).join(', ')})`) : sql.raw('fields');
  let after = 0;
  for (;;) {
    const result = (await tx.execute(sql`SELECT seq, pk, ${fields} AS fields FROM aplus_rows WHERE model = ${model} AND seq > ${after} ORDER BY seq LIMIT ${BATCH}`)) as unknown as {
      rows: { seq: number; pk: string; fields: Record<string, unknown> }[];
    };
    const rows = result.rows;
    if (!rows.length) return;
    for (const row of rows) yield { model, seq: Number(row.seq), pk: row.pk, fields: row.fields };
    after = Number(rows[rows.length - 1].seq);
  }
}
