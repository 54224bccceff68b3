import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../helpers.js';

const directive = (csp: string, name: string) => csp.split(';').map((part) => part.trim()).find((part) => part.startsWith(`${name} `)) ?? '';

test("F16: the CSP lets forms post only to the site itself (form-action 'self')", async () => {
  const { request } = await createTestApp();
  for (const url of ['/accounts/login/', '/accounts/signup/', '/api/contenttypes/']) {
    const response = await request({ method: 'GET', url });
    const csp = String(response.headers['content-security-policy'] ?? '');
    assert.equal(directive(csp, 'form-action'), "form-action 'self'", url);
  }
  // The login page's forms post to the site itself; social login starts with a GET link, not a form.
  const login = await request({ method: 'GET', url: '/accounts/login/' });
  for (const [, action] of login.text.matchAll(/<form[^>]*action="([^"]*)"/g)) assert.ok(action.startsWith('/'), action);
});
