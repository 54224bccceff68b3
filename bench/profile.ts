/**
 * Profiles one route in-process: `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts <path> [requests]`
 * against BENCH_DATABASE_URL (or BENCH_DATA_DIR), with the bench user's token; then
 * `npx tsx bench/profile-top.ts /tmp/prof/<file>.cpuprofile` lists where the time went.
 * `ACCEPT_ENCODING=gzip` sends that header too.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';

const [path = '/api/app-projects/', count = '50', method = 'GET'] = process.argv.slice(2);
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
const started = performance.now();
for (let i = 0; i < Number(count); i++) {
  const response = await app.inject({ method: method as 'GET' | 'POST', url: path, headers, payload });
  if (response.statusCode >= 300) throw new Error(`${response.statusCode} ${response.body}`);
}
console.log(`${count} × ${method} ${path}: ${((performance.now() - started) / Number(count)).toFixed(1)} ms each, ${database.stats.queries / Number(count)} statements`);
await app.close();
await database.close();
