import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { modules } from '../../src/db/schema/index.js';
import { dashboardApp, signedIn } from './world.js';

const HOSTILE: { type: string; payload: string }[] = [
  { type: 'application/x-www-form-urlencoded', payload: 'name=%ZZ&action=publish&action=archive' },
  { type: 'application/x-www-form-urlencoded', payload: `name=${'x'.repeat(9000)}&description=%00&access=PUBLIC&phase-0-start=9999-99-99&term-abc=1&delete-1=on&point_lat=NaN&point_lng=1e999` },
  { type: 'application/json', payload: '{"name": {"a": 1}, "action": ["publish"]}' },
  { type: 'multipart/form-data; boundary=xyz', payload: '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nbroken' },
  { type: 'text/plain', payload: 'hello' },
];

/** Every dashboard page, read and posted to with hostile bodies by an initiator: never a 5xx. */
test('no dashboard page answers a server error to bad input', { timeout: 600_000 }, async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/blueprints/brainstorming/', {});
  const [module] = await db.select().from(modules).where(eq(modules.projectId, 2));
  const paths = [
    '/org/dashboard/projects/', '/org/dashboard/projects/?page=abc&is_archived=x', '/org/dashboard/projects/create/', '/org/dashboard/projects/draft-plan/',
    ...['basic', 'information', 'result', 'location', 'publish', 'duplicate', 'delete', 'blueprints', 'blueprints/idea-collection', 'moderators', 'participants'].map((c) => `/org/dashboard/projects/draft-plan/${c}/`),
    ...['module_basic', 'phases', 'categories', 'labels', 'state', 'nothing'].map((c) => `/org/dashboard/modules/${module.slug}/${c}/`),
    ...['export/', 'export/ideas.xlsx', 'export/comments.csv', 'export/x.pdf'].map((e) => `/org/dashboard/modules/${module.slug}/${e}`),
    '/org/dashboard/projects/%00/basic/', '/org/dashboard/modules/x%27--/phases/', '/%00/dashboard/projects/',
  ];
  const failures: string[] = [];
  for (const url of paths) {
    const get = await initiator.get(url);
    if (get.status >= 500) failures.push(`GET ${url} → ${get.status}`);
    for (const body of HOSTILE) {
      const response = await app.inject({
        method: 'POST',
        url,
        payload: body.payload,
        headers: { cookie: [...initiator.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrftoken': initiator.csrf, 'content-type': body.type },
      });
      if (response.statusCode >= 500) failures.push(`POST ${url} ${body.payload.slice(0, 30)} → ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
  }
  assert.deepEqual(failures, []);
});
