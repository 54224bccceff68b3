import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/client.js';
import { apiTokens } from '../src/db/schema/index.js';
import type { Fixture } from '../src/cli/fixture-schema.js';
import { loadFixture } from '../src/cli/loaddata.js';
import { hashPassword } from '../src/core/users/passwords.js';

/** Each fixture password is hashed once per test process (argon2 is slow on purpose), not once per test. */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  const known = hashes.get(password) ?? hashPassword(password);
  hashes.set(password, known);
  return known;
}

/** Loads records in the loaddata format (the same path as `npm run manage -- loaddata`), with its passwords hashed once per process. */
export async function load(db: Db, fixture: Fixture): Promise<void> {
  const users = fixture.users && (await Promise.all(fixture.users.map(async ({ password, ...user }) => (password && !user.password_hash ? { ...user, password_hash: await hashOnce(password) } : { ...user, password }))));
  await loadFixture(db, users ? { ...fixture, users } : fixture, { baseDir: process.cwd() });
}

/** An `Authorization: Token …` header for a user (inserts an API key directly). */
export async function tokenHeader(db: Db, userId: number): Promise<{ authorization: string }> {
  const key = randomBytes(20).toString('hex');
  await db.insert(apiTokens).values({ key, userId }).onConflictDoNothing();
  const [row] = await db.select({ key: apiTokens.key }).from(apiTokens).where(eqUser(userId));
  return { authorization: `Token ${row.key}` };
}

const eqUser = (userId: number) => eq(apiTokens.userId, userId);

const DAY = 24 * 3600 * 1000;
/** An ISO time `days` from now (negative: in the past). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/**
 * The platform's imprint, data protection notice and terms of use in both languages: a project is
 * published only once they are written (issue 22.3), and the sign-up form asks to accept them.
 */
export const PLATFORM_TEXTS: NonNullable<Fixture['platform_pages']> = (['imprint', 'privacy', 'terms'] as const).flatMap((key) => [
  { key, language: 'en' as const, body: `<p>The ${key} of the test platform.</p>` },
  { key, language: 'de' as const, body: `<p>Test-Plattform: ${key}.</p>` },
]);

/**
 * A small world most route tests need (with the platform's legal texts written): users 1 admin (superuser), 2 initiator, 3 moderator,
 * 4 participant/org member, 5 plain user, 6 another user; organisation 1 with geolocation;
 * project 1 public with module 1 (collect phase running, categories 1-2, label 1).
 */
export function basicWorld(): Fixture {
  const users = ['admin', 'initiator', 'moderator', 'member', 'user', 'other'].map((username, i) => ({
    id: i + 1,
    username,
    email: `${username}@example.org`,
    password: `${username}-password`,
    is_superuser: username === 'admin',
    language: 'en' as const,
  }));
  return {
    users,
    organisations: [{ id: 1, slug: 'org', name: 'Organisation', enable_geolocation: true, initiators: [2], members: [4] }],
    projects: [{ id: 1, slug: 'project', name: 'Project', organisation: 1, moderators: [3], participants: [4] }],
    modules: [
      {
        id: 1,
        project: 1,
        name: 'Ideas',
        phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }],
        categories: [
          { id: 1, name: 'Traffic' },
          { id: 2, name: 'Parks' },
        ],
        labels: [{ id: 1, name: 'Urgent' }],
      },
    ],
    platform_pages: PLATFORM_TEXTS,
  };
}

/** basicWorld with more records: each list in `extra` is appended to basicWorld's list of that kind. */
export function basicWorldWith(extra: Fixture): Fixture {
  const world = basicWorld();
  for (const kind of Object.keys(extra) as (keyof Fixture)[]) append(world, extra, kind);
  return world;
}

function append<K extends keyof Fixture>(world: Fixture, extra: Fixture, kind: K) {
  // One kind's records on both sides; TypeScript cannot see that the spread of two Fixture[K] is a Fixture[K].
  world[kind] = [...(world[kind] ?? []), ...(extra[kind] ?? [])] as Fixture[K];
}
