import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { hashPassword } from '../../src/core/users/passwords.js';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { modules, projectInvites, usersvcUsers } from '../../src/db/schema/index.js';
import { createService, createUser, openSession } from '../../src/usersvc/services.js';
import { createBrowserSession, SESSION_COOKIE } from '../../src/http/session.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../fixtures.js';
import { results } from '../../src/features/results/schema.js';

/** Who sends a request: headers for the platform API (Token) and for the user/session service (X-Thentos-Session). */
export interface Caller {
  name: 'anonymous' | 'user' | 'moderator' | 'initiator' | 'admin' | 'guest';
  api: Record<string, string>;
  usersvc: Record<string, string>;
  /** A browser session (cookies) and its form token, for the page routes (pages.ts). */
  pages: { headers: Record<string, string>; csrf: string };
}

/** Ids and names that exist in the world, so valid requests reach real objects. */
export interface Known {
  moduleIds: number[];
  moduleSlugs: string[];
  inviteTokens: string[];
  ideaIds: number[];
  commentIds: number[];
  feedbackIds: number[];
  ratingIds: number[];
  projectSlugs: string[];
  projectIds: number[];
  contentTypeIds: number[];
  categoryIds: number[];
  labelIds: number[];
  logins: { username: string; password: string }[];
  refreshToken: string;
  accessToken: string;
  usersvcUserIds: number[];
  usersvcSessions: string[];
  usersvcServiceIds: string[];
  usersvcLogins: { name: string; password: string }[];
  serviceKeys: { id: string; key: string }[];
}

/**
 * The world the attack suite runs in: basicWorld plus a second organisation with a private
 * project, a draft module, ideas, comments with replies, ratings, reports, moderator feedback
 * follows, offline events, a moderator remark, a custom field with an answer, a district (project 1's), an area preset, a content page
 * an in-app notification of the user and one of another (users: 1 admin, 2 initiator, 3 moderator, 4 member, 5 user, 6 other, 7 outsider, 8 a guest, whom project 1 lets take part: issue 34.4).
 */
export function fuzzFixture(): Fixture {
  const collect = [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }];
  const world = basicWorldWith({
    users: [
      { id: 7, username: 'outsider', email: 'outsider@example.org', password: 'outsider-password', language: 'de' },
      { id: 8, username: 'guest-0123456789ab', email: 'guest-0123456789ab@guest.invalid', is_guest: true, email_verified: false, language: 'de' },
    ],
    administrative_districts: [{ id: 1, name: 'Mitte', short_code: 'mi' }],
    map_preset_categories: [{ id: 1, name: 'Districts' }],
    map_presets: [{ id: 1, name: 'Old town', category: 1, area: { type: 'Polygon', coordinates: [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]] } }],
    organisations: [{ id: 2, slug: 'other-org', name: 'Other', initiators: [7] }],
    projects: [
      { id: 2, slug: 'private', name: 'Private', organisation: 2, access: 'PRIVATE', participants: [6] },
      { id: 3, slug: 'archived', name: 'Archived', organisation: 1, is_archived: true },
    ],
    modules: [
      { id: 2, project: 2, name: 'Private ideas', phases: collect },
      { id: 3, project: 1, name: 'Draft ideas', is_draft: true, phases: collect },
      { id: 4, project: 3, name: 'Archived ideas', phases: [{ type: 'a4_candy_ideas:rating', start_date: daysFromNow(-10), end_date: daysFromNow(-5) }] },
    ],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Idea of user', description: '<p>x</p>', category: 1, labels: [1] },
      { id: 2, module: 1, creator: 6, name: 'Idea of other', description: 'y', category: 2 },
      { id: 3, module: 2, creator: 6, name: 'Private idea', description: 'z' },
      { id: 4, module: 3, creator: 3, name: 'Draft idea', description: 'd' },
      { id: 5, module: 4, creator: 5, name: 'Archived idea', description: 'a' },
    ],
    comments: [
      { id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'first' },
      { id: 2, creator: 5, target: { type: 'comment', id: 1 }, comment: 'reply' },
      { id: 3, creator: 5, target: { type: 'idea', id: 2 }, comment: 'on other' },
      { id: 4, creator: 6, target: { type: 'idea', id: 3 }, comment: 'private' },
      { id: 5, creator: 5, target: { type: 'idea', id: 1 }, comment: 'blocked', is_blocked: true },
    ],
    ratings: [{ creator: 6, target: { type: 'idea', id: 1 }, value: 1 }],
    reports: [{ creator: 5, target: { type: 'comment', id: 1 }, description: 'spam' }],
    comment_feedback: [{ id: 1, comment: 1, creator: 3, feedback_text: 'thanks' }],
    follows: [{ creator: 5, project: 1 }],
    offline_events: [
      { project: 1, creator: 2, slug: 'meeting', name: 'Meeting', event_type: 'Versammlung', date: daysFromNow(2), description: '<p>At the town hall.</p>' },
      { project: 2, creator: 7, slug: 'private-meeting', name: 'Private meeting', event_type: 'Workshop', date: daysFromNow(5), description: '<p>Members only.</p>' },
    ],
    moderator_remarks: [{ target: { type: 'idea', id: 1 }, creator: 3, remark: 'Compare with idea 2.' }],
    custom_fields: [{ id: 1, module: 1, label: 'Your district', kind: 'choice', choices: [{ id: 1, label: 'North' }, { id: 2, label: 'South' }] }],
    custom_field_answers: [{ field: 1, target: { type: 'idea', id: 1 }, choice: 1 }],
    content_pages: [{ id: 1, slug: 'help', title_en: 'Help', title_de: 'Hilfe', body_en: '<p>How it works</p>', placement: 'menu' }],
    notifications: [
      { id: 1, recipient: 5, kind: 'comment', message: 'A comment on your idea.', target_url: '/org/projects/project/', project: 1 },
      { id: 2, recipient: 6, kind: 'comment', message: 'A comment on your idea.', target_url: '/org/projects/project/', project: 1, read: true },
    ],
  });
  return { ...world, projects: world.projects?.map((p) => (p.id === 1 ? { ...p, allow_guests: true } : p)) };
}

const hashes = new Map<string, Promise<string>>();

/** The fixture with argon2 hashes made once per run instead of once per epoch. */
async function withHashedPasswords(fixture: Fixture): Promise<Fixture> {
  const users = await Promise.all(
    (fixture.users ?? []).map(async ({ password, ...user }) => {
      if (!password) return user;
      if (!hashes.has(password)) hashes.set(password, hashPassword(password));
      return { ...user, password_hash: await hashes.get(password) };
    }),
  );
  return { ...fixture, users };
}

/** The tables a request may legitimately touch without changing content; compared by these columns only. */
const VOLATILE_COLUMNS: Record<string, string> = {
  // Using a session extends it (ends_at): a read that moves the end of a session changes no content.
  usersvc_sessions: 'token, user_id, starts_at IS NOT NULL',
  // A page request may renew its browser session (expires_at, the CSRF token in data): no content.
  browser_sessions: 'id, user_id',
};

/**
 * Tables the background work or a page read rewrites without changing what they say, fingerprinted
 * by what they say: the pages' change log is moved into its sums every few seconds, each project's
 * total (its page version) kept; the two tables are fingerprinted together, by each project's total.
 * The module tiles' figures, which a page read writes, only repeat what they count: left out.
 */
const MERGED_TABLES: Record<string, string> = {
  page_changes: `SELECT 'page_changes' AS t, count(*)::int AS n, coalesce(sum(hashtextextended(project_id || ':' || total, 0)::numeric), 0)::text AS h
    FROM (SELECT project_id, sum(n) AS total FROM (SELECT project_id, n FROM page_changes UNION ALL SELECT project_id, n FROM page_change_sums WHERE scope = 2) c GROUP BY project_id) x`,
  page_change_sums: `SELECT 'page_change_sums' AS t, 0 AS n, '0' AS h`,
  module_figures: `SELECT 'module_figures' AS t, 0 AS n, '0' AS h`,
};

/** The public tables and one query that fingerprints all of them. */
async function checksumQuery(database: Database): Promise<{ tables: string[]; query: string }> {
  const rows = await database.db.execute<{ table_name: string }>(
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const tables = rowsOf<{ table_name: string }>(rows).map((row) => row.table_name);
  const parts = tables.map((table) => {
    if (MERGED_TABLES[table]) return MERGED_TABLES[table];
    const value = VOLATILE_COLUMNS[table] ? `(${VOLATILE_COLUMNS[table]})::text` : 'x::text';
    // A sum of row hashes: independent of row order, so no sort is needed.
    return `SELECT '${table}' AS t, count(*)::int AS n, coalesce(sum(hashtextextended(${value}, 0)::numeric), 0)::text AS h FROM "${table}" x`;
  });
  return { tables, query: parts.join(' UNION ALL ') };
}

/** node-postgres answers { rows }, PGlite an array-like result with rows too. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** A reverse-proxy upstream for /proxy-test that answers every request with 200 and what it saw. */
export async function startEchoUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, url: request.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/upstream`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface Epoch {
  app: FastifyInstance;
  callers: Caller[];
  known: Known;
  mediaDir: string;
  /** table → "rows:hash" of every public table. */
  checksum(): Promise<Map<string, string>>;
  /** The names of the media files (uploads). */
  mediaFiles(): string[];
  close(): Promise<void>;
}

/** A browser session for the page routes: the login form's cookies and the form token after logging in (anonymous: the token only). */
async function browserSession(app: FastifyInstance, username?: string): Promise<Caller['pages']> {
  const cookies = new Map<string, string>();
  const keep = (setCookie: unknown) => {
    for (const line of [setCookie ?? []].flat() as string[]) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      cookies.set(name.trim(), value.join('='));
    }
  };
  const header = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  keep((await app.inject({ method: 'GET', url: '/accounts/login/' })).headers['set-cookie']);
  if (username) {
    const body = new URLSearchParams({ csrfmiddlewaretoken: cookies.get('csrftoken') ?? '', login: username, password: `${username}-password` }).toString();
    const login = await app.inject({ method: 'POST', url: '/accounts/login/', payload: body, headers: { cookie: header(), 'content-type': 'application/x-www-form-urlencoded' } });
    if (login.statusCode !== 302) throw new Error(`the fuzz world's ${username} could not log in (${login.statusCode})`);
    keep(login.headers['set-cookie']);
  }
  return { headers: { cookie: header() }, csrf: cookies.get('csrftoken') ?? '' };
}

/** A guest's browser (issue 34.4): a guest has no password to log in with, so its session is made as "take part as a guest" makes it. */
async function guestSession(app: FastifyInstance, db: Database['db'], userId: number): Promise<Caller['pages']> {
  const anonymous = await browserSession(app);
  return { ...anonymous, headers: { cookie: `${anonymous.headers.cookie}; ${SESSION_COOKIE}=${await createBrowserSession(db, userId)}` } };
}

/**
 * One epoch of the run: the database emptied and loaded with the fuzz world, a new app on it.
 * Epochs keep the tables small (a fingerprint stays cheap) and bound what one failure can spoil.
 */
export async function startEpoch(database: Database, upstreamUrl: string): Promise<Epoch> {
  const { tables, query } = await checksumQuery(database);
  await database.db.execute(sql.raw(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`));
  await load(database.db, await withHashedPasswords(fuzzFixture()));
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-fuzz-'));
  const config = testConfig({
    dataDir,
    usersvcAdmin: { name: 'god', email: 'god@example.org', password: 'god-password' },
    usersvcProxyTargets: { echo: upstreamUrl },
  });
  const app = await buildApp({ config, database });
  await app.ready();
  const db = database.db;
  const now = new Date();
  const [admin] = await db.select({ id: usersvcUsers.id }).from(usersvcUsers).where(eq(usersvcUsers.name, 'god'));
  const plainId = await db.transaction((tx) => createUser(tx, { name: 'alice', email: 'alice@example.org', password: 'alice-password' }));
  const adminSession = await openSession(db, admin.id, 3600, now);
  const plainSession = await openSession(db, plainId, 3600, now);
  const [serviceId, serviceKey] = await db.transaction((tx) => createService(tx));
  const login = await app.inject({ method: 'POST', url: '/api/token/', payload: { username: 'user', password: 'user-password' } });
  const tokens = JSON.parse(login.body) as { access: string; refresh: string };
  const callers: Caller[] = [
    { name: 'anonymous', api: {}, usersvc: {}, pages: await browserSession(app) },
    { name: 'user', api: await tokenHeader(db, 5), usersvc: { 'x-thentos-session': plainSession }, pages: await browserSession(app, 'user') },
    { name: 'moderator', api: await tokenHeader(db, 3), usersvc: { 'x-thentos-session': adminSession }, pages: await browserSession(app, 'moderator') },
    { name: 'initiator', api: await tokenHeader(db, 2), usersvc: { 'x-thentos-session': plainSession }, pages: await browserSession(app, 'initiator') },
    { name: 'admin', api: await tokenHeader(db, 1), usersvc: { 'x-thentos-session': adminSession }, pages: await browserSession(app, 'admin') },
    { name: 'guest', api: await tokenHeader(db, 8), usersvc: {}, pages: await guestSession(app, db, 8) },
  ];
  const moduleSlugs = (await db.select({ slug: modules.slug }).from(modules)).map((m) => m.slug);
  // A result in project 1 (issue 39; results have no fixture kind).
  await db.insert(results).values({ projectId: 1, title: 'Playground' });
  const invites = await db
    .insert(projectInvites)
    .values([
      { projectId: 1, role: 'moderator' as const, email: 'user@example.org' },
      { projectId: 2, role: 'participant' as const, email: 'other@example.org' },
    ])
    .returning({ token: projectInvites.token });
  const known: Known = {
    moduleIds: [1, 2, 3, 4],
    moduleSlugs,
    inviteTokens: invites.map((i) => i.token),
    ideaIds: [1, 2, 3, 4, 5],
    commentIds: [1, 2, 3, 4, 5],
    feedbackIds: [1],
    ratingIds: [1],
    projectSlugs: ['project', 'private', 'archived'],
    projectIds: [1, 2, 3],
    contentTypeIds: (JSON.parse((await app.inject({ method: 'GET', url: '/api/contenttypes/' })).body) as { id: number }[]).map((ct) => ct.id),
    categoryIds: [1, 2],
    labelIds: [1],
    logins: [
      { username: 'user', password: 'user-password' },
      { username: 'moderator@example.org', password: 'moderator-password' },
    ],
    refreshToken: tokens.refresh,
    accessToken: tokens.access,
    usersvcUserIds: [admin.id, plainId],
    usersvcSessions: [adminSession, plainSession],
    usersvcServiceIds: [serviceId, 'echo'],
    usersvcLogins: [{ name: 'alice', password: 'alice-password' }],
    serviceKeys: [{ id: serviceId, key: serviceKey }],
  };
  const mediaDir = join(dataDir, 'media');
  return {
    app,
    callers,
    known,
    mediaDir,
    async checksum() {
      const result = rowsOf<{ t: string; n: number; h: string }>(await db.execute(sql.raw(query)));
      return new Map(result.map((row) => [row.t, `${row.n}:${row.h}`]));
    },
    mediaFiles: () => readdirSync(mediaDir, { recursive: true, encoding: 'utf8' }).sort(),
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
