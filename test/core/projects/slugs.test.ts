import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { isReservedSlug } from '../../../src/core/slugs.js';
import { dashboardApp, signedIn } from '../../manage/world.js';

/** Every registered path, read back from Fastify's route tree (`├── segment (METHODS)`, four columns a level). */
function registeredPaths(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    stack.length = depth;
    stack.push(`${stack[depth - 1] ?? ''}${line.slice(at + 4).replace(/ \([A-Z, ]+\)$/, '')}`);
    paths.push(stack[depth]);
  }
  return paths;
}

const SLUG_PARAMS = new Set([':org', ':slug', ':module', ':project_slug']);
const param = (segment: string) => segment.startsWith(':');
/** Whether one URL can reach both segments: a parameter meets any fixed segment but a reserved one (no slug is reserved). */
const alike = (a: string, b: string) => a === b || (param(a) && param(b)) || (param(a) !== param(b) && !isReservedSlug(param(a) ? b : a));

test('no fixed path segment that stands where an organisation, project or module slug stands can be a slug', async () => {
  const { app } = await dashboardApp();
  const routes = registeredPaths(app).map((path) => path.split('/').filter(Boolean));
  assert.ok(routes.some((r) => r.join('/') === ':org/dashboard/projects/create'), 'the route tree was read');
  const clashes = new Map<string, string>();
  for (const withSlug of routes) {
    withSlug.forEach((param, i) => {
      if (!SLUG_PARAMS.has(param)) return;
      for (const fixed of routes) {
        const segment = fixed[i];
        if (!segment || !/^[-\w]+$/.test(segment) || !withSlug.slice(0, i).every((s, j) => alike(s, fixed[j] ?? ''))) continue;
        if (!isReservedSlug(segment) && !clashes.has(segment)) clashes.set(segment, `/${fixed.join('/')}/ beside /${withSlug.join('/')}/`);
      }
    });
  }
  assert.deepEqual(Object.fromEntries(clashes), {}, 'add these to RESERVED_SLUGS in src/core/slugs.ts');
});

test('a project named "Create" or "Module" gets its own address; its pages and the create form all still work', async () => {
  const { app } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  for (const [name, slug] of [['Create', 'create-2'], ['Module', 'module-2'], ['Participant invites', 'participant-invites-2']]) {
    const created = await initiator.post('/org/dashboard/projects/create/', { name, description: 'Clashing name', access: 'PUBLIC' });
    assert.equal(created.location, `/org/dashboard/projects/${slug}/basic/?done=created`, name);
    const dashboard = await initiator.get(`/org/dashboard/projects/${slug}/`);
    assert.ok([200, 302].includes(dashboard.status), `${name}: dashboard ${dashboard.status}`);
    const basic = await initiator.get(`/org/dashboard/projects/${slug}/basic/`);
    assert.equal(basic.status, 200);
    assert.match(basic.text, new RegExp(`value="${name}"`));
    const page = await initiator.get(`/org/projects/${slug}/`);
    assert.equal(page.status, 200, `${name}: public page`);
    assert.match(page.text, new RegExp(name));
  }
  const form = await initiator.get('/org/dashboard/projects/create/');
  assert.equal(form.status, 200);
  assert.match(form.text, /name="name"/);
});
