import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'usersvc-config-')), SECRET_KEY: 'k'.repeat(40) });

test('user/session service defaults: no admin, sessions of 14 days, proxying off', () => {
  const config = loadConfig(base());
  assert.equal(config.usersvcAdmin, null);
  assert.equal(config.usersvcSessionLifetimeSeconds, 14 * 24 * 3600);
  assert.deepEqual(config.usersvcProxyTargets, {});
});

test('the first admin, the session lifetime and the proxy targets come from the environment', () => {
  const config = loadConfig({
    ...base(),
    USERSVC_ADMIN_NAME: 'root',
    USERSVC_ADMIN_PASSWORD: 'long enough',
    USERSVC_SESSION_LIFETIME: '600',
    USERSVC_PROXY_TARGETS: '{"helloworld": "http://127.0.0.1:9000", "other": "https://app.example.org/base"}',
  });
  assert.deepEqual(config.usersvcAdmin, { name: 'root', email: 'root@usersvc.invalid', password: 'long enough' });
  assert.equal(config.usersvcSessionLifetimeSeconds, 600);
  assert.deepEqual(config.usersvcProxyTargets, { helloworld: 'http://127.0.0.1:9000', other: 'https://app.example.org/base' });
  const withEmail = loadConfig({ ...base(), USERSVC_ADMIN_NAME: 'root', USERSVC_ADMIN_PASSWORD: 'long enough', USERSVC_ADMIN_EMAIL: 'ops@example.org' });
  assert.equal(withEmail.usersvcAdmin?.email, 'ops@example.org');
});

test('each wrong user/session service value gets a clear message', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ USERSVC_ADMIN_NAME: 'root' }, /USERSVC_ADMIN_NAME and USERSVC_ADMIN_PASSWORD must be set together/],
    [{ USERSVC_ADMIN_PASSWORD: 'long enough' }, /must be set together/],
    [{ USERSVC_ADMIN_NAME: 'root', USERSVC_ADMIN_PASSWORD: 'short' }, /USERSVC_ADMIN_PASSWORD must be at least 8/],
    [{ USERSVC_ADMIN_NAME: 'root', USERSVC_ADMIN_PASSWORD: 'long enough', USERSVC_ADMIN_EMAIL: 'nope' }, /USERSVC_ADMIN_EMAIL/],
    [{ USERSVC_SESSION_LIFETIME: 'forever' }, /USERSVC_SESSION_LIFETIME must be a whole number/],
    [{ USERSVC_SESSION_LIFETIME: '0' }, /USERSVC_SESSION_LIFETIME must be between/],
    [{ USERSVC_PROXY_TARGETS: 'http://x' }, /USERSVC_PROXY_TARGETS must be a JSON object/],
    [{ USERSVC_PROXY_TARGETS: '["http://x"]' }, /USERSVC_PROXY_TARGETS must be a JSON object/],
    [{ USERSVC_PROXY_TARGETS: '{"s": "ftp://x"}' }, /the target of "s" must be an http/],
    [{ USERSVC_PROXY_TARGETS: '{"s": 5}' }, /the target of "s" must be an http/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig({ ...base(), ...env }), (error: unknown) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env));
  }
});
