import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';

/** The platform on a PostgreSQL that does not answer (nothing listens on port 1). */
async function appWithoutDatabase() {
  const database = openPostgres('postgres://postgres@127.0.0.1:1/allmende', { max: 2 });
  const app = await buildApp({ config: testConfig(), database });
  after(async () => {
    await app.close();
    await database.close();
  });
  return app;
}

test('F12: while PostgreSQL is unreachable the API answers 503 with Retry-After, not 500', async () => {
  const app = await appWithoutDatabase();
  for (const url of ['/api/contenttypes/4/objects/1/comments/', '/api/modules/1/ideas/', '/api/app-projects/']) {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: 'Token 0123456789abcdef0123456789abcdef01234567' } });
    assert.equal(response.statusCode, 503, url);
    assert.ok(Number(response.headers['retry-after']) > 0, url);
    assert.match(response.json<{ detail: string }>().detail, /temporarily unavailable/);
  }
  const login = await app.inject({ method: 'POST', url: '/api/login/', payload: { username: 'someone', password: 'secret-secret' } });
  assert.equal(login.statusCode, 503);
});

test('F12: pages answer a 503 page with Retry-After, and /healthz says the database is unavailable', async () => {
  const app = await appWithoutDatabase();
  const page = await app.inject({ method: 'GET', url: '/org/projects/project/', headers: { accept: 'text/html', cookie: 'sessionid=abc' } });
  assert.equal(page.statusCode, 503);
  assert.ok(page.headers['retry-after']);
  assert.match(String(page.headers['content-type']), /text\/html/);
  const health = await app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(health.statusCode, 503);
  assert.deepEqual(health.json(), { status: 'unavailable' });
  assert.ok(Number(health.headers['retry-after']) > 0);
});
