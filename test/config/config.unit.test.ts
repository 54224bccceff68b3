import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'allmende-config-'));

test('defaults: 127.0.0.1:8004, embedded database, Europe/Berlin, demo on', () => {
  const config = loadConfig({ DATA_DIR: dataDir() });
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8004);
  assert.equal(config.databaseUrl, null);
  assert.equal(config.timeZone, 'Europe/Berlin');
  assert.equal(config.seedDemo, true);
});

test('a missing SECRET_KEY is generated once and kept in DATA_DIR', () => {
  const dir = dataDir();
  const first = loadConfig({ DATA_DIR: dir });
  const second = loadConfig({ DATA_DIR: dir });
  assert.equal(first.secretKey, second.secretKey);
  assert.equal(readFileSync(join(dir, 'secret_key'), 'utf8'), first.secretKey);
});

test('a missing SECRET_KEY is refused in production', () => {
  assert.throws(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' }), /SECRET_KEY must be set/);
});

test('each wrong value gets a clear message', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres/],
    [{ BASE_URL: 'not a url' }, /BASE_URL is not a valid URL/],
    [{ TIME_ZONE: 'Mars/Olympus' }, /TIME_ZONE "Mars\/Olympus" is not a known time zone/],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO must be true or false/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must start with redis/],
    [{ SECRET_KEY: 'short' }, /SECRET_KEY must be at least 32/],
    [{ SUMMARIES_URL: 'ftp://model' }, /SUMMARIES_URL must start with https:\/\/ or http:\/\//],
    [{ SUMMARIES_URL: 'http://127.0.0.1:8080/v1' }, /SUMMARIES_MODEL must name the model/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig({ DATA_DIR: dataDir(), ...env }), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  }
});

test('machine summaries: off by default; SUMMARIES_URL (without its trailing slash), SUMMARIES_MODEL and an optional key turn them on', () => {
  assert.equal(loadConfig({ DATA_DIR: dataDir() }).summaries, null);
  assert.deepEqual(loadConfig({ DATA_DIR: dataDir(), SUMMARIES_URL: 'http://127.0.0.1:8080/v1/', SUMMARIES_MODEL: 'llama' }).summaries, { url: 'http://127.0.0.1:8080/v1', model: 'llama', apiKey: null });
  assert.equal(loadConfig({ DATA_DIR: dataDir(), SUMMARIES_URL: 'https://models.example.org/v1', SUMMARIES_MODEL: 'm', SUMMARIES_API_KEY: 'k' }).summaries?.apiKey, 'k');
});

test('a postgres DATABASE_URL switches to PostgreSQL; BASE_URL loses its trailing slash', () => {
  const config = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db:5432/allmende', BASE_URL: 'https://beteiligung.example.org/' });
  assert.equal(config.databaseUrl, 'postgres://u@db:5432/allmende');
  assert.equal(config.baseUrl, 'https://beteiligung.example.org');
});

test('WEB_CONCURRENCY: every core on PostgreSQL by default, 1 on the embedded database, which refuses more', () => {
  const onPostgres = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db/allmende' });
  assert.equal(onPostgres.webConcurrency, availableParallelism());
  assert.equal(onPostgres.databasePoolSize, 20);
  assert.equal(loadConfig({ DATA_DIR: dataDir() }).webConcurrency, 1);
  assert.equal(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db/allmende', WEB_CONCURRENCY: '3' }).webConcurrency, 3);
  assert.throws(() => loadConfig({ DATA_DIR: dataDir(), WEB_CONCURRENCY: '2' }), /WEB_CONCURRENCY above 1 needs PostgreSQL/);
  assert.throws(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db/a', WEB_CONCURRENCY: '0' }), /WEB_CONCURRENCY must be between 1/);
  assert.throws(
    () => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db/a', WEB_CONCURRENCY: '4', DATABASE_POOL_SIZE: '2' }),
    /DATABASE_POOL_SIZE must be between 4/,
  );
});

test('REDIS_PREFIX: "allmende:" by default; letters, digits and . _ : - only (issue 36.15)', () => {
  assert.equal(loadConfig({ DATA_DIR: dataDir() }).redisPrefix, 'allmende:');
  assert.equal(loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: 'city-a:' }).redisPrefix, 'city-a:');
  for (const bad of ['', 'a b', 'x*', 'x'.repeat(65)]) assert.throws(() => loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: bad }), ConfigError, JSON.stringify(bad));
});
