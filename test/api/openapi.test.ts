import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../helpers.js';

type Json = Record<string, unknown>;
type Operation = { responses: Json; requestBody?: { content: Json }; tags?: string[] };

test('the app API as a whole: OpenAPI document, docs page, 405s', async (t) => {
  const { request } = await createTestApp();
  const document = (await request({ method: 'GET', url: '/api/schema/' })).body as { openapi: string; paths: Record<string, Record<string, Operation>> };

  await t.test('every path and method of the app API is documented with its responses', () => {
    assert.equal(document.openapi, '3.1.0');
    const expected: Record<string, string[]> = {
      '/api/app-projects/': ['get'],
      '/api/app-projects/{slug}/': ['get'],
      '/api/app-modules/': ['get'],
      '/api/app-modules/{pk}/': ['get'],
      '/api/modules/{moduleId}/ideas/': ['get', 'post'],
      '/api/modules/{moduleId}/ideas/{pk}/': ['get', 'put', 'patch', 'delete'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      assert.ok(document.paths[path], path);
      assert.deepEqual(Object.keys(document.paths[path]).sort(), [...methods].sort(), path);
    }
    const create = document.paths['/api/modules/{moduleId}/ideas/'].post;
    assert.deepEqual(Object.keys(create.responses).sort(), ['201', '400', '401', '403', '404', '413', '415']);
    assert.deepEqual(Object.keys(create.requestBody?.content ?? {}).sort(), ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    const idea = JSON.stringify(create.responses['201']);
    for (const field of ['reference_number', 'has_deleting_permission', 'user_rating']) assert.ok(idea.includes(field), field);
    const project = JSON.stringify(document.paths['/api/app-projects/'].get.responses['200']);
    for (const field of ['single_idea_collection_module', 'participation_time_display', 'contact_url']) assert.ok(project.includes(field), field);
  });

  await t.test('a method a path does not have is a JSON 405 with Allow', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/app-projects/', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/api/app-projects/radwege/', 'GET, HEAD, OPTIONS'],
      ['PUT', '/api/app-modules/1/', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/api/modules/1/ideas/', 'GET, POST, HEAD, OPTIONS'],
      ['POST', '/api/modules/1/ideas/1/', 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    ];
    for (const [method, url, allow] of cases) {
      const response = await request({ method: method as 'POST', url });
      assert.equal(response.status, 405, `${method} ${url}`);
      assert.deepEqual(response.body, { detail: `Method "${method}" not allowed.` });
      assert.equal(response.headers.allow, allow);
    }
  });

  await t.test('the interactive docs page is served', async () => {
    const response = await request({ method: 'GET', url: '/api/docs/' });
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
  });
});
