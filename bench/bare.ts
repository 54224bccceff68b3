/**
 * The bare limit: node:http + pg (or PGlite), no framework, answering what Allmende's scenarios
 * answer with one statement each and JSON.stringify. Started by bench/api.ts; WORKERS processes
 * share the port through node:cluster like Allmende's workers. Prints "bare at <url>" when ready.
 */
import { PGlite } from '@electric-sql/pglite';
import { verify } from '@node-rs/argon2';
import cluster from 'node:cluster';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
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
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    try {
      const url = request.url ?? '';
      let match: RegExpExecArray | null;
      if (url === '/api/app-projects/') send(200, await query(APP_PROJECTS, [token, null]));
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
