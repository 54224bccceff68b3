import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { hashPassword } from '../core/users/passwords.js';
import { syncSequences } from './loaddata.js';

/** How many of each kind `generate` adds. */
export interface GenerateCounts {
  users: number;
  organisations: number;
  projects: number;
  ideas: number;
  comments: number;
  actions: number;
}

/** The kinds `generate` adds, in the order of its options (`manage generate --users N …`). */
export const GENERATED_KINDS = ['users', 'organisations', 'projects', 'ideas', 'comments', 'actions'] as const satisfies readonly (keyof GenerateCounts)[];

/** The password of every generated user (for load tests of the logins). */
export const GENERATED_PASSWORD = 'generated-pw';

/** Rows per INSERT … SELECT FROM generate_series statement. */
const BATCH = 25_000;

export class GenerateError extends Error {}

interface Stage {
  kind: keyof GenerateCounts;
  /** One INSERT for rows g in [from, to] (1-based within this run), ids after `base`. */
  insert(base: number, from: number, to: number): SQL;
}

const LOREM =
  'Wir wollen gemeinsam mit Ihnen die Zukunft unseres Viertels gestalten. Welche Wege fehlen, wo braucht es mehr Grün, ' +
  'mehr Sitzplätze oder sicherere Kreuzungen? Teilen Sie Ihre Ideen, kommentieren Sie die Vorschläge anderer und bewerten Sie sie. ';

/** The rows of a table generated in this run (its newest `n`), or all of them when none are generated. */
const newest = (table: string, n: number, where = 'true') => `(SELECT * FROM ${table} WHERE ${where} ORDER BY id DESC LIMIT ${n || 'ALL'})`;

/** `n` rows starting from `first`: what generate_series draws on. */
const series = (from: number, to: number) => sql.raw(`generate_series(${from}, ${to}) g`);

function stages(counts: GenerateCounts, passwordHash: string): Stage[] {
  const { organisations, projects } = counts; // the kinds that others draw on
  return [
    {
      kind: 'users',
      insert: (b, from, to) => sql`
        INSERT INTO users (id, username, email, password, language, email_verified, date_joined)
        SELECT ${sql.raw(String(b))} + g, 'gen_user_' || (${sql.raw(String(b))} + g), 'gen_user_' || (${sql.raw(String(b))} + g) || '@example.org',
          ${passwordHash}, CASE WHEN g % 3 = 0 THEN 'de' ELSE 'en' END, true, now() - (g % 1000) * interval '1 day'
        FROM ${series(from, to)}`,
    },
    {
      kind: 'organisations',
      insert: (b, from, to) =>
        sql.raw(`
        INSERT INTO organisations (id, slug, name, title, description, enable_geolocation, created)
        SELECT ${b} + g, 'gen-org-' || (${b} + g), 'Generated organisation ' || (${b} + g), 'Stadt ' || (${b} + g),
          left('${LOREM}', 300), g % 4 <> 0, now() - g * interval '1 hour'
        FROM generate_series(${from}, ${to}) g`),
    },
    {
      // One idea-collection module per project, with one phase: about half of them still running or to come.
      kind: 'projects',
      insert: (b, from, to) =>
        sql.raw(`
        WITH o AS (SELECT array_agg(id ORDER BY id DESC) a FROM ${newest('organisations', organisations)} x),
        p AS (
          INSERT INTO projects (id, slug, name, organisation_id, description, information, access, is_draft, is_archived,
            point_lat, point_lng, street_name, house_number, zip_code, contact_name, contact_email, contact_phone, created)
          SELECT ${b} + g, 'gen-project-' || (${b} + g), 'Beteiligung ' || (${b} + g), o.a[1 + g % cardinality(o.a)],
            left('${LOREM}', 200), '<p>' || repeat('${LOREM}', 3) || '</p>',
            (CASE g % 10 WHEN 0 THEN 'SEMIPUBLIC' WHEN 1 THEN 'PRIVATE' ELSE 'PUBLIC' END)::project_access,
            g % 10 = 2, g % 20 = 3,
            CASE WHEN g % 5 <> 0 THEN 52.5 + (g % 100) / 1000.0 END, CASE WHEN g % 5 <> 0 THEN 13.4 + (g % 77) / 1000.0 END,
            'Hauptstraße', (g % 200)::text, '10115', CASE WHEN g % 3 = 0 THEN 'Bürgerbüro' ELSE '' END,
            CASE WHEN g % 3 = 0 THEN 'buergerbuero@example.org' ELSE '' END, '', now() - g * interval '1 minute'
          FROM generate_series(${from}, ${to}) g, o
          RETURNING id),
        m AS (
          INSERT INTO modules (slug, project_id, name, blueprint_type, weight, is_draft)
          SELECT 'gen-module-' || p.id, p.id, 'Ideensammlung', 'IC', 0, false FROM p
          RETURNING id)
        INSERT INTO phases (module_id, type, name, start_date, end_date)
        SELECT m.id, 'a4_candy_ideas:collect', 'Ideen sammeln', s.start, s.start + (1 + m.id % 45) * interval '1 day'
        FROM m CROSS JOIN LATERAL (SELECT now() - (m.id % 30) * interval '1 day' AS start) s`),
    },
    {
      // Ideas in blocks per module (the newest projects' modules); every tenth by the first generated user.
      kind: 'ideas',
      insert: (b, from, to) =>
        sql.raw(`
        WITH m AS (SELECT array_agg(id ORDER BY id) a FROM ${newest('modules', projects, "blueprint_type = 'IC'")} x),
        u AS (SELECT array_agg(id ORDER BY id DESC) a FROM ${newest('users', counts.users)} x)
        INSERT INTO ideas (id, module_id, creator_id, name, description, created)
        SELECT ${b} + g, m.a[1 + ((g - 1)::bigint * cardinality(m.a) / ${counts.ideas})::int], CASE WHEN g % 10 = 0 THEN u.a[cardinality(u.a)] ELSE u.a[1 + g % cardinality(u.a)] END,
          'Idee ' || (${b} + g), '<p>' || left('${LOREM}', 100 + g % 200) || '</p>', now() - g * interval '1 second'
        FROM generate_series(${from}, ${to}) g, m, u`),
    },
    {
      // Comments on ideas; every tenth goes to the first module's ideas (a busy project for the moderation list).
      kind: 'comments',
      insert: (b, from, to) =>
        sql.raw(`
        WITH ri AS ${newest('ideas', counts.ideas)},
        i AS (SELECT array_agg(id ORDER BY module_id, id) a, count(*) FILTER (WHERE module_id = (SELECT min(module_id) FROM ri))::int first FROM ri),
        u AS (SELECT array_agg(id ORDER BY id) a FROM ${newest('users', counts.users)} x)
        INSERT INTO comments (id, creator_id, content_type, object_pk, comment, project_id, created)
        SELECT ${b} + g, u.a[1 + g % cardinality(u.a)], 'idea', x.idea, left('${LOREM}', 40 + g % 250), md.project_id, now() - g * interval '1 second'
        FROM generate_series(${from}, ${to}) g CROSS JOIN i CROSS JOIN u
        CROSS JOIN LATERAL (SELECT CASE WHEN g % 10 = 0 THEN i.a[1 + (g / 10) % i.first] ELSE i.a[1 + g % cardinality(i.a)] END AS idea) x
        JOIN ideas id ON id.id = x.idea JOIN modules md ON md.id = id.module_id`),
    },
    {
      // "add" actions of comments on ideas, for the ideas' creators' activity feeds.
      kind: 'actions',
      insert: (b, from, to) =>
        sql.raw(`
        WITH c AS (SELECT min(id) lo, max(id) hi FROM ${newest('comments', counts.comments)} x)
        INSERT INTO actions (id, actor_id, verb, obj_type, obj_id, target_type, target_id, target_creator_id, project_id, timestamp)
        SELECT ${b} + g, cm.creator_id, 'add', 'comment', cm.id, 'idea', cm.object_pk, i.creator_id, cm.project_id, now() - g * interval '1 second'
        FROM generate_series(${from}, ${to}) g CROSS JOIN c
        JOIN comments cm ON cm.id = c.hi - (g % (c.hi - c.lo + 1))
        JOIN ideas i ON cm.content_type = 'idea' AND i.id = cm.object_pk`),
    },
  ];
}

/** What each kind needs to exist first. */
const NEEDS: [keyof GenerateCounts, (keyof GenerateCounts)[], string][] = [
  ['projects', ['organisations'], 'organisations'],
  ['ideas', ['projects', 'users'], 'projects (idea collections) and users'],
  ['comments', ['ideas', 'users'], 'ideas and users'],
  ['actions', ['comments'], 'comments'],
];

const TABLE: Record<keyof GenerateCounts, string> = {
  users: 'users',
  organisations: 'organisations',
  projects: 'projects',
  ideas: 'ideas',
  comments: 'comments',
  actions: 'actions',
};

async function scalar(db: DbOrTx, query: string): Promise<number> {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] };
  return Number(Object.values(result.rows[0] ?? {})[0] ?? 0);
}

/**
 * Adds realistic data in batches of INSERT … SELECT FROM generate_series, inside the caller's
 * transaction: ids continue after the highest existing ones. A kind that needs another (ideas need
 * projects and users, …) takes the rows generated in this run, else fails when none exist.
 */
export async function generate(tx: DbOrTx, counts: GenerateCounts, onProgress: (done: number, total: number) => void = () => undefined): Promise<void> {
  for (const [kind, needs, what] of NEEDS) {
    if (!counts[kind]) continue;
    for (const need of needs) {
      if (!counts[need] && !(await scalar(tx, `SELECT count(*) FROM ${TABLE[need]}`))) throw new GenerateError(`--${kind} needs ${what}: none exist, pass --${need} N too`);
    }
  }
  const total = Object.values(counts).reduce((n, c) => n + c, 0);
  let done = 0;
  onProgress(0, total);
  const passwordHash = counts.users ? await hashPassword(GENERATED_PASSWORD) : '';
  for (const stage of stages(counts, passwordHash)) {
    const n = counts[stage.kind];
    if (!n) continue;
    const base = await scalar(tx, `SELECT COALESCE(max(id), 0) FROM ${TABLE[stage.kind]}`);
    for (let from = 1; from <= n; from += BATCH) {
      const to = Math.min(n, from + BATCH - 1);
      await tx.execute(stage.insert(base, from, to));
      done += to - from + 1;
      onProgress(done, total);
    }
    await syncSequences(tx);
  }
}
