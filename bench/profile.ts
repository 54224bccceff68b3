/**
 * Profiles one route in-process: `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts <path> [requests] [method]`
 * against BENCH_DATABASE_URL (or BENCH_DATA_DIR), with the bench user's token; then
 * `npx tsx bench/profile-top.ts /tmp/prof/<file>.cpuprofile` lists where the time went.
 * `ACCEPT_ENCODING=gzip` sends that header too.
 * `PROFILE_BUILD=1` runs the compiled app from dist/ (`npm run build` first) instead of src/ through tsx.
 * Prints the ms per request one after the other and the server's CPU ms per request (after 50 uncounted).
 */
import { sql } from 'drizzle-orm';
import type * as AppModule from '../src/app.js';
import type * as ConfigModule from '../src/config.js';
import type * as ClientModule from '../src/db/client.js';

const [path = '/api/app-projects/', count = '50', method = 'GET'] = process.argv.slice(2);
const from = process.env.PROFILE_BUILD === '1' ? '../dist' : '../src';
const { buildApp } = (await import(`${from}/app.js`)) as typeof AppModule;
const { testConfig } = (await import(`${from}/config.js`)) as typeof ConfigModule;
const { openDatabase } = (await import(`${from}/db/client.js`)) as typeof ClientModule;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/allmende-bench';
const database = await openDatabase({ databaseUrl, dataDir }, 4);
const app = await buildApp({ config: testConfig({ dataDir, databaseUrl }), database });
const result = (await database.db.execute(sql.raw(`SELECT key FROM api_tokens WHERE key = '${'b'.repeat(40)}'`))) as unknown as { rows: { key: string }[] };
const headers = {
  authorization: `Token ${result.rows[0].key}`,
  'content-type': 'application/json',
  ...(process.env.ACCEPT_ENCODING ? { 'accept-encoding': process.env.ACCEPT_ENCODING } : {}),
};
const payload = method === 'POST' ? JSON.stringify({ name: 'Profiled idea', description: 'x' }) : undefined;
const send = async () => {
  const response = await app.inject({ method: method as 'GET' | 'POST', url: path, headers, payload });
  if (response.statusCode >= 300) throw new Error(`${response.statusCode} ${response.body}`);
};
for (let i = 0; i < 50; i++) await send();
const [statements, cpu, started] = [database.stats.queries, process.cpuUsage(), performance.now()];
for (let i = 0; i < Number(count); i++) await send();
const ms = (performance.now() - started) / Number(count);
const used = process.cpuUsage(cpu);
console.log(
  `${count} × ${method} ${path}: ${ms.toFixed(2)} ms each, server CPU ${((used.user + used.system) / 1000 / Number(count)).toFixed(2)} ms each, ${(database.stats.queries - statements) / Number(count)} statements`,
);
await app.close();
await database.close();
