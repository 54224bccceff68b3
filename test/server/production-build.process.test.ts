import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { buildProduction } from '../../scripts/build.js';
import { type Running, startServer } from '../processes.js';

const exited = (child: ChildProcess) => new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

/** `npm run start:prod` of a build in `dir`, on a fresh embedded database; resolves with its address. */
function startBuild(dir: string, dataDir: string): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'production', SECRET_KEY: 'build-test-secret-key-build-test-secret-key', BASE_URL: 'http://127.0.0.1:8000', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.WEB_CONCURRENCY;
  return startServer([join(dir, 'main.js')], env);
}

/**
 * Also the smoke set that CI runs on the next Node.js LTS line (its PostgreSQL run's servers run on
 * TEST_POSTGRES_SERVER_NODE, from the npm registry's `node` package: issue 36.17): start-up, the
 * app API, a page, a form post, the live channel.
 */
test('the production build (one bundled module) migrates, loads the demo, serves pages, static files, the API docs, logins, a form post and the live channel, and stops cleanly', { timeout: 600_000 }, async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'allmende-build-'));
  try {
    const dir = join(scratch, 'dist');
    await buildProduction(dir);
    // The packages left external (PGlite, argon2, sharp, …) are found in the node_modules beside the build, as in a deployment.
    symlinkSync(resolve('node_modules'), join(scratch, 'node_modules'));
    const server = await startBuild(dir, join(scratch, 'data'));
    assert.match(server.output(), /alice\s+alice-demo-pw/, 'migrations and the demo data found beside the bundle');
    const get = (path: string) => fetch(server.url + path);
    assert.equal((await get('/healthz')).status, 200);
    const home = await get('/');
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /text\/html/);
    assert.equal((await get('/static/favicon.svg')).status, 200, 'static files beside the bundle');
    const docs = await get('/api/docs/static/swagger-ui.css');
    assert.equal(docs.status, 200, "swagger-ui's own files, found in its package");
    assert.match(await docs.text(), /swagger-ui/);
    const schema = (await (await get('/api/schema/')).json()) as { paths: Record<string, unknown> };
    assert.ok('/api/app-projects/' in schema.paths);
    const login = await fetch(`${server.url}/api/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-demo-pw' }) });
    assert.equal(login.status, 200, 'argon2 (a native package left external) verifies the password');
    const { token } = (await login.json()) as { token: string };
    const appProjects = await fetch(`${server.url}/api/app-projects/`, { headers: { authorization: `Token ${token}` } });
    assert.equal(appProjects.status, 200);
    const [project] = (await appProjects.json()) as { pk: number }[];
    assert.ok(project, 'the demo has a project');
    // A form post: the login form with its CSRF cookie and token.
    const form = await get('/accounts/login/');
    const cookies = form.headers.getSetCookie().map((c) => c.split(';')[0]);
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    const posted = await fetch(`${server.url}/accounts/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.join('; '), origin: server.url },
      body: new URLSearchParams({ csrfmiddlewaretoken: csrf, login: 'admin', password: 'admin-demo-pw' }).toString(),
    });
    assert.equal(posted.status, 302, 'the login form signs in');
    // The live channel: a superuser's moderation stream of a project answers text/event-stream.
    const admin = (await (await fetch(`${server.url}/api/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin-demo-pw' }) })).json()) as { token: string };
    const aborting = new AbortController();
    const stream = await fetch(`${server.url}/api/userdashboard/moderation/${project.pk}/live/`, { headers: { authorization: `Token ${admin.token}`, accept: 'text/event-stream' }, signal: aborting.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    const first = await stream.body?.getReader().read();
    assert.match(new TextDecoder().decode(first?.value), /^retry: 2000/);
    aborting.abort();
    const code = exited(server.child);
    server.child.kill('SIGTERM');
    assert.equal(await code, 0);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
