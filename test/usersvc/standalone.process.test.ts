import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { testConfig } from '../../src/config.js';
import { openPgliteDir } from '../../src/db/client.js';
import { buildUsersvcApp } from '../../src/usersvc/app.js';
import { createTestDatabase } from '../database.js';
import { ADMIN, adminHeaders, userHeaders } from './helpers.js';
import { programArgs } from '../processes.js';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'usersvc-standalone-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('on its own the service answers its routes, and every other path with a plain-text 404', async () => {
  const database = await createTestDatabase();
  const app = await buildUsersvcApp({ config: testConfig({ usersvcAdmin: ADMIN }), database });
  after(async () => {
    await app.close();
    await database.close();
  });
  const users = await app.inject({ method: 'GET', url: '/user', headers: adminHeaders });
  assert.equal(users.statusCode, 200);
  assert.equal(users.body, '[1]');
  for (const url of ['/healthz', '/api/app-projects/', '/']) {
    const response = await app.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 404, url);
    assert.equal(response.body, 'not found');
  }
});

test('users and sessions survive a restart (embedded database on disk)', async () => {
  const dataDir = tempDir();
  const config = testConfig({ dataDir, usersvcAdmin: ADMIN });
  const start = async () => {
    const database = await openPgliteDir(dataDir);
    await database.migrate();
    return { database, app: await buildUsersvcApp({ config, database }) };
  };
  const first = await start();
  const created = await first.app.inject({
    method: 'POST',
    url: '/user',
    headers: adminHeaders,
    payload: { udName: 'kurt', udEmail: 'kurt@example.org', udPassword: 'kurt-password' },
  });
  assert.equal(created.statusCode, 201);
  const session = await first.app.inject({ method: 'POST', url: '/session', headers: userHeaders('kurt', 'kurt-password'), payload: created.body });
  const token = JSON.parse(session.body) as string;
  await first.app.close();
  await first.database.close();

  const second = await start();
  after(async () => {
    await second.app.close();
    await second.database.close();
  });
  const users = await second.app.inject({ method: 'GET', url: '/user', headers: adminHeaders });
  assert.equal(users.body, `[1,${created.body}]`);
  const active = await second.app.inject({ method: 'GET', url: `/session/${token}` });
  assert.equal(active.body, 'true');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

test('src/usersvc/main.ts (npm run start:usersvc) starts the service alone on its own PORT', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, programArgs('usersvc'), {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      DATA_DIR: tempDir(),
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
      USERSVC_ADMIN_NAME: ADMIN.name,
      USERSVC_ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  after(() => void child.kill('SIGTERM'));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is running at')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  assert.match(output, new RegExp(`127\\.0\\.0\\.1:${port}/`));
  const service = await fetch(`http://127.0.0.1:${port}/service`, { method: 'POST' });
  assert.equal(service.status, 201);
  const users = await fetch(`http://127.0.0.1:${port}/user`, { headers: adminHeaders });
  assert.equal(await users.text(), '[1]');
});
