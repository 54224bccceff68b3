/**
 * The bare limit: node:http + pg (or PGlite), no framework, answering what Allmende's scenarios
 * answer with one statement each and JSON.stringify. Started by bench/api.ts; WORKERS processes
 * share the port through node:cluster like Allmende's workers. Prints "bare at <url>" when ready.
 */
import { PGlite } from '@electric-sql/pglite';
import { verify } from '@node-rs/argon2';
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';

const workers = Number(process.env.WORKERS ?? 1);

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

async function connect(): Promise<Query> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Math.max(1, Math.floor(20 / workers)) });
    return async (text, params) => (await pool.query(text, params)).rows;
  }
  const db = await PGlite.create({ dataDir: join(process.env.DATA_DIR ?? './data', 'pglite') });
  return async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows;
}

const TOKEN_OK = `EXISTS (SELECT 1 FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.key = $1 AND u.is_active)`;

/** The app project list (decision D1) with each project's published modules and phases, in one statement. */
const APP_PROJECTS = `
  SELECT p.id, p.slug, p.name, p.description, p.information, p.result, p.access, p.image, p.point_lat, p.point_lng,
    p.street_name, p.house_number, p.zip_code, p.contact_name, p.contact_address_text, p.contact_email, p.contact_phone,
    p.contact_url, o.slug AS organisation_slug, o.name AS organisation_name, o.title AS organisation_title, o.logo AS organisation_logo,
    (SELECT json_agg(json_build_object('id', m.id, 'type', m.blueprint_type, 'phases',
        (SELECT json_agg(json_build_object('start', ph.start_date, 'end', ph.end_date) ORDER BY ph.weight, ph.id) FROM phases ph WHERE ph.module_id = m.id))
      ORDER BY m.weight, m.id) FROM modules m WHERE m.project_id = p.id AND NOT m.is_draft) AS modules
  FROM projects p JOIN organisations o ON o.id = p.organisation_id
  WHERE ${TOKEN_OK} AND p.access IN ('PUBLIC', 'SEMIPUBLIC') AND NOT p.is_draft AND NOT p.is_archived AND o.enable_geolocation
    AND ($2::text IS NULL OR p.slug = $2)
    AND EXISTS (SELECT 1 FROM modules m JOIN phases ph ON ph.module_id = m.id WHERE m.project_id = p.id AND NOT m.is_draft AND ph.end_date > now())
  ORDER BY p.created DESC, p.id DESC`;

/** A module's ideas with their counts, the caller's rating and labels, in one statement. */
const IDEAS = `
  SELECT i.id, i.name, i.description, i.image, i.created, u.username AS creator, c.id AS category_id, c.name AS category_name,
    (SELECT count(*) FROM comments x WHERE x.content_type = 'idea' AND x.object_pk = i.id) AS comment_count,
    (SELECT count(*) FROM ratings x WHERE x.content_type = 'idea' AND x.object_pk = i.id AND x.value = 1) AS positive_rating_count,
    (SELECT count(*) FROM ratings x WHERE x.content_type = 'idea' AND x.object_pk = i.id AND x.value = -1) AS negative_rating_count,
    (SELECT json_agg(json_build_object('id', l.id, 'name', l.name)) FROM idea_labels il JOIN labels l ON l.id = il.label_id WHERE il.idea_id = i.id) AS labels
  FROM ideas i JOIN users u ON u.id = i.creator_id LEFT JOIN categories c ON c.id = i.category_id
  WHERE ${TOKEN_OK} AND i.module_id = $2 ORDER BY i.created DESC, i.id DESC`;

/** The reference's idea creation: token, the add-idea rule (a running collect phase of a public project), the insert. */
const CREATE_IDEA = `
  INSERT INTO ideas (module_id, creator_id, name, description, created)
  SELECT m.id, t.user_id, $3, $4, now() FROM api_tokens t JOIN users u ON u.id = t.user_id AND u.is_active, modules m JOIN projects p ON p.id = m.project_id
  WHERE t.key = $1 AND m.id = $2 AND NOT p.is_draft AND p.access = 'PUBLIC'
    AND EXISTS (SELECT 1 FROM phases ph WHERE ph.module_id = m.id AND ph.type = 'a4_candy_ideas:collect' AND ph.start_date <= now() AND ph.end_date > now())
  RETURNING id, module_id, creator_id, name, description, created`;

/** A page of the moderation comment list (unread, newest first) with the total, for a moderator's token. */
const MODERATION = `
  SELECT c.id AS pk, c.comment, c.is_reviewed, c.is_blocked, c.is_moderator_marked, c.created, c.modified, c.content_type, c.object_pk,
    u.username, u.avatar, (SELECT count(*) FROM reports r WHERE r.content_type = 'comment' AND r.object_pk = c.id) AS num_reports,
    (SELECT f.feedback_text FROM comment_feedback f WHERE f.comment_id = c.id) AS moderator_feedback, count(*) OVER () AS count
  FROM comments c JOIN users u ON u.id = c.creator_id
  WHERE EXISTS (SELECT 1 FROM api_tokens t JOIN project_moderators pm ON pm.user_id = t.user_id WHERE t.key = $1 AND pm.project_id = $2)
    AND c.project_id = $2 AND NOT c.is_reviewed
  ORDER BY c.created DESC, c.id DESC LIMIT $3`;

/** The activity feed page of the session's user: the feed's UNION ALL (as in dashboard/queries.ts) with each entry's details. */
const FEED = `
  WITH me AS (SELECT s.user_id FROM browser_sessions s WHERE s.id = $1 AND s.expires_at > now()),
  f AS (SELECT f.id, f.timestamp FROM (
      (SELECT a.id, a.timestamp FROM actions a JOIN comments cm ON cm.id = a.obj_id, me
        WHERE a.target_creator_id = me.user_id AND a.obj_type = 'comment' AND a.verb = 'add'
          AND (a.target_type IS NULL OR a.target_type NOT IN ('poll', 'chapter', 'paragraph')) AND a.actor_id IS DISTINCT FROM me.user_id AND NOT cm.is_blocked
        ORDER BY a.timestamp DESC, a.id DESC LIMIT 20)
      UNION ALL
      (SELECT a.id, a.timestamp FROM actions a, me WHERE a.obj_comment_creator_id = me.user_id AND a.obj_type = 'moderatorcommentfeedback'
          AND a.actor_id IS DISTINCT FROM me.user_id ORDER BY a.timestamp DESC, a.id DESC LIMIT 20)
    ) f ORDER BY f.timestamp DESC, f.id DESC LIMIT 20)
  SELECT a.id, a.verb, a.timestamp, u.username AS actor, p.name AS project, p.slug AS project_slug, o.slug AS organisation_slug, c.comment
  FROM f JOIN actions a ON a.id = f.id LEFT JOIN users u ON u.id = a.actor_id LEFT JOIN projects p ON p.id = a.project_id
    LEFT JOIN organisations o ON o.id = p.organisation_id LEFT JOIN comments c ON a.obj_type = 'comment' AND c.id = a.obj_id
  ORDER BY f.timestamp DESC, f.id DESC`;

/** The project page: the project, its organisation and its published modules with their phases. */
const PROJECT_PAGE = `
  SELECT p.name, p.description, p.information, p.image, o.name AS organisation,
    (SELECT json_agg(json_build_object('name', m.name, 'slug', m.slug, 'phases',
        (SELECT json_agg(json_build_object('name', ph.name, 'start', ph.start_date, 'end', ph.end_date) ORDER BY ph.weight, ph.id) FROM phases ph WHERE ph.module_id = m.id))
      ORDER BY m.weight, m.id) FROM modules m WHERE m.project_id = p.id AND NOT m.is_draft) AS modules
  FROM projects p JOIN organisations o ON o.id = p.organisation_id
  WHERE o.slug = $1 AND p.slug = $2 AND NOT p.is_draft AND p.access <> 'PRIVATE'`;

/** The idea list page: the module's first page of ideas (15, newest first) with their counts. */
const IDEA_LIST_PAGE = `
  SELECT i.id, i.name, i.created, u.username AS creator, c.name AS category, count(*) OVER () AS total,
    (SELECT count(*) FROM comments x WHERE x.content_type = 'idea' AND x.object_pk = i.id) AS comment_count,
    (SELECT count(*) FROM ratings x WHERE x.content_type = 'idea' AND x.object_pk = i.id AND x.value = 1) AS positive_rating_count,
    (SELECT count(*) FROM ratings x WHERE x.content_type = 'idea' AND x.object_pk = i.id AND x.value = -1) AS negative_rating_count
  FROM ideas i JOIN modules m ON m.id = i.module_id JOIN projects p ON p.id = m.project_id JOIN organisations o ON o.id = p.organisation_id
    JOIN users u ON u.id = i.creator_id LEFT JOIN categories c ON c.id = i.category_id
  WHERE o.slug = $1 AND m.slug = $2 AND NOT m.is_draft AND NOT p.is_draft AND p.access <> 'PRIVATE'
  ORDER BY i.created DESC, i.id DESC LIMIT 15`;

/**
 * The idea page: the idea with its module, project and organisation, and its thread's first page
 * (20 comments, newest first) with each comment's rating counts and its replies (oldest first) as JSON.
 */
const IDEA_PAGE = `
  SELECT i.name, i.description, u.username AS creator, m.name AS module, p.name AS project, o.name AS organisation,
    c.id, c.comment, c.created, cu.username AS author,
    (SELECT count(*) FROM ratings r WHERE r.content_type = 'comment' AND r.object_pk = c.id AND r.value = 1) AS positive,
    (SELECT count(*) FROM ratings r WHERE r.content_type = 'comment' AND r.object_pk = c.id AND r.value = -1) AS negative,
    (SELECT json_agg(json_build_object('comment', a.comment, 'author', au.username, 'created', a.created) ORDER BY a.created, a.id)
      FROM comments a JOIN users au ON au.id = a.creator_id WHERE a.content_type = 'comment' AND a.object_pk = c.id) AS replies
  FROM ideas i JOIN modules m ON m.id = i.module_id JOIN projects p ON p.id = m.project_id JOIN organisations o ON o.id = p.organisation_id
    JOIN users u ON u.id = i.creator_id
    LEFT JOIN LATERAL (SELECT * FROM comments x WHERE x.content_type = 'idea' AND x.object_pk = i.id ORDER BY x.created DESC, x.id DESC LIMIT 20) c ON true
    LEFT JOIN users cu ON cu.id = c.creator_id
  WHERE o.slug = $1 AND i.id = $2 AND NOT m.is_draft AND NOT p.is_draft AND p.access <> 'PRIVATE'
  ORDER BY c.created DESC, c.id DESC`;

/** The start page's twin: the public, published, running projects with their organisations (the start page lists them all). */
const START_PAGE = `
  SELECT p.name, p.slug, p.description, o.slug AS org, o.name AS organisation
  FROM projects p JOIN organisations o ON o.id = p.organisation_id
  WHERE NOT p.is_draft AND NOT p.is_archived AND p.access = 'PUBLIC'
  ORDER BY p.id DESC`;

const escape = (value: unknown) => String(value ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
/** A page of the same size class as Allmende's: a head, and one list item per row with its values. */
const html = (title: string, rows: Record<string, unknown>[]) =>
  `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>${escape(title)}</title><link rel="stylesheet" href="/static/site.css"></head><body><main><h1>${escape(title)}</h1><ul>${rows
    .map((row) => `<li>${Object.values(row).map((v) => `<span>${escape(typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v)}</span>`).join('')}</li>`)
    .join('')}</ul></main></body></html>`;

const LOGIN = `SELECT u.password, t.key FROM users u LEFT JOIN api_tokens t ON t.user_id = u.id WHERE lower(u.username) = lower($1) AND u.is_active`;

async function body(request: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as Record<string, string>;
}

async function serve() {
  const query = await connect();
  const server = createServer(async (request, response) => {
    const token = (request.headers.authorization ?? '').replace(/^Token /, '');
    // gzip when asked, per request, as a server that keeps no answers does (`app-projects-gzip`).
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    const send = (status: number, value: unknown) => {
      const json = JSON.stringify(value);
      if (!gzip || json.length < 1024) return response.writeHead(status, { 'content-type': 'application/json' }).end(json);
      response.writeHead(status, { 'content-type': 'application/json', 'content-encoding': 'gzip', vary: 'accept-encoding' }).end(gzipSync(json, { level: 6 }));
    };
    const page = (title: string, rows: Record<string, unknown>[]) => {
      response.writeHead(rows.length ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html(title, rows));
    };
    try {
      const [url, search = ''] = (request.url ?? '').split('?');
      const params = new URLSearchParams(search);
      let match: RegExpExecArray | null;
      if ((match = /^\/api\/userdashboard\/moderation\/(\d+)\/comments\/$/.exec(url))) {
        const rows = await query(MODERATION, [token, Number(match[1]), Number(params.get('num_of_comments') ?? 20)]);
        send(200, { count: Number(rows[0]?.count ?? 0), results: rows });
      } else if (url === '/userdashboard/overview/activities/') {
        const cookie = /(?:^|; )sessionid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1] ?? '';
        page('Aktivitäten', await query(FEED, [createHash('sha256').update(cookie).digest('hex')]));
      } else if (url === '/') page('Start', await query(START_PAGE, []));
      else if ((match = /^\/([-\w]+)\/projects\/module\/([-\w]+)\/$/.exec(url))) page('Ideen', await query(IDEA_LIST_PAGE, [match[1], match[2]]));
      else if ((match = /^\/([-\w]+)\/ideas\/\d{4}-(\d+)\/$/.exec(url))) page('Idee', await query(IDEA_PAGE, [match[1], Number(match[2])]));
      else if ((match = /^\/([-\w]+)\/projects\/([-\w]+)\/$/.exec(url))) page('Projekt', await query(PROJECT_PAGE, [match[1], match[2]]));
      else if (url === '/api/app-projects/') send(200, await query(APP_PROJECTS, [token, null]));
      else if ((match = /^\/api\/app-projects\/([-\w]+)\/$/.exec(url))) send(200, (await query(APP_PROJECTS, [token, match[1]]))[0] ?? null);
      else if ((match = /^\/api\/modules\/(\d+)\/ideas\/$/.exec(url)) && request.method === 'GET') send(200, await query(IDEAS, [token, Number(match[1])]));
      else if ((match = /^\/api\/modules\/(\d+)\/ideas\/$/.exec(url))) {
        const input = await body(request);
        const [idea] = await query(CREATE_IDEA, [token, Number(match[1]), input.name, input.description]);
        send(idea ? 201 : 403, idea ?? { detail: 'denied' });
      } else if (url === '/api/login/') {
        const input = await body(request);
        const [user] = await query(LOGIN, [input.username]);
        const ok = user && (await verify(String(user.password), input.password));
        send(ok ? 200 : 400, ok ? { token: user.key } : { detail: 'wrong' });
      } else send(404, { detail: 'Not found.' });
    } catch (error) {
      send(500, { detail: String(error) });
    }
  });
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    if (cluster.isWorker) process.send?.(url);
    else console.log(`bare at ${url}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (workers > 1 && cluster.isPrimary) {
  let ready = 0;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on('message', (url: string) => {
      if (++ready === workers) console.log(`bare at ${url}`);
    });
  }
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
  });
} else {
  await serve();
}
