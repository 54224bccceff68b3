/**
 * Load scenarios against a real server on loopback, beside a bare Fastify baseline.
 * Usage: npx tsx bench/run.ts [seconds per scenario, default 5]   (DATABASE_URL set: PostgreSQL)
 * Bounded: each scenario runs a fixed time with 10 connections to 127.0.0.1 only, then stops.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { seedDemoIfEmpty } from '../src/cli/demo.js';
import { testConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';

const seconds = Number(process.argv[2] ?? 5);

async function measure(title: string, url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers });
  const ok = result.non2xx === 0 && result.errors === 0;
  return { title, 'req/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99, ok };
}

async function main() {
  const bare = Fastify();
  bare.get('/', async () => ({ status: 'ok' }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-bench-'));
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir });
  await database.migrate();
  await seedDemoIfEmpty(database.db, { mediaStore: 'directory', dataDir });
  const app = await buildApp({ config: testConfig({ dataDir, logLevel: 'warn', databaseUrl: process.env.DATABASE_URL ?? null }), database });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${url}/api/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-demo-pw' }) });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Token ${token}` };

  const rows = [
    await measure('bare Fastify baseline', `${bareUrl}/`),
    await measure('GET /healthz', `${url}/healthz`),
    await measure('GET /api/app-projects/', `${url}/api/app-projects/`, auth),
    await measure('GET /api/app-projects/radwege/', `${url}/api/app-projects/radwege/`, auth),
    await measure('GET /api/modules/1/ideas/', `${url}/api/modules/1/ideas/`, auth),
  ];
  console.log(`Database: ${database.kind}; ${seconds} s per scenario, 10 connections`);
  console.table(rows);

  await app.close();
  await bare.close();
  await new Promise((resolve) => setTimeout(resolve, 500)); // handlers of requests autocannon cut off still finish
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
