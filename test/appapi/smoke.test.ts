import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

test('smoke', async () => {
  const { request, db } = await createTestApp();
  await load(db, basicWorld());
  const h = await tokenHeader(db, 5);
  for (const url of ['/api/app-projects/', '/api/app-projects/project/', '/api/app-modules/', '/api/modules/1/ideas/']) {
    const r = await request({ method: 'GET', url, headers: h });
    console.log(url, r.status, JSON.stringify(r.body));
  }
  let r = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers: h, payload: { name: 'A', description: '<b>x</b>', category: 1, labels: [1] } });
  console.log(r.status, JSON.stringify(r.body));
  r = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=B&description=y&category=2&labels=1' });
  console.log(r.status, JSON.stringify(r.body));
  r = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=B&description=y&category=' });
  console.log(r.status, JSON.stringify(r.body));
  r = await request({ method: 'PATCH', url: '/api/modules/1/ideas/1/', headers: h, payload: { name: 'A2' } });
  console.log(r.status, JSON.stringify(r.body));
  r = await request({ method: 'DELETE', url: '/api/modules/1/ideas/1/', headers: h });
  console.log(r.status, r.text);
  r = await request({ method: 'GET', url: '/api/modules/abc/ideas/', headers: h });
  console.log(r.status, r.text);
  r = await request({ method: 'GET', url: '/api/modules/99999999999/ideas/', headers: h });
  console.log(r.status, r.text);
  r = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers: {...h, 'content-type': 'application/json'}, payload: '{bad' });
  console.log(r.status, r.text);
  r = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers: {...h, 'content-type': 'application/json'}, payload: '[1]' });
  console.log(r.status, r.text);
  r = await request({ method: 'GET', url: '/api/schema/' });
  console.log(Object.keys((r.body as {paths: object}).paths));
  assert.ok(true);
});
