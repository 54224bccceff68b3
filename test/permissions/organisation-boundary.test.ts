import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentTypeId } from '../../src/core/contenttypes/registry.js';
import { loadModuleContext, loadProjectContext } from '../../src/core/projects/context.js';
import { daysFromNow, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

// Finding F1: the context loader compared a column with itself, so an initiator or member of ANY
// organisation counted as initiator or member of EVERY organisation. Two organisations prove it.
const users = ['ownInitiator', 'ownMember', 'strangerInitiator', 'strangerMember', 'author'].map((username, i) => ({
  id: i + 1,
  username,
  email: `${username.toLowerCase()}@example.org`,
  language: 'en' as const,
}));
const [OWN_INITIATOR, OWN_MEMBER, STRANGER_INITIATOR, STRANGER_MEMBER, AUTHOR] = users.map((u) => u.id);

test('organisation roles count only in their own organisation (F1)', async (t) => {
  const { db, database, request } = await createTestApp();
  await load(db, {
    users,
    organisations: [
      { id: 1, slug: 'own', name: 'Own', initiators: [OWN_INITIATOR], members: [OWN_MEMBER] },
      { id: 2, slug: 'stranger', name: 'Stranger', initiators: [STRANGER_INITIATOR], members: [STRANGER_MEMBER] },
    ],
    projects: [{ id: 1, slug: 'private', name: 'Private', organisation: 1, access: 'PRIVATE', participants: [AUTHOR] }],
    modules: [{ id: 1, project: 1, name: 'Ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
    ideas: [{ id: 1, module: 1, creator: AUTHOR, name: 'Idea', description: 'text' }],
    comments: [{ id: 1, creator: AUTHOR, target: { type: 'idea', id: 1 }, comment: 'A comment' }],
  });
  const as = async (userId: number) => tokenHeader(db, userId);

  await t.test('the loaded context gives the roles of the project’s organisation only', async () => {
    const roles = async (id: number) => (await loadProjectContext(db, 1, { id, isSuperuser: false }))?.roles;
    assert.deepEqual(await roles(OWN_INITIATOR), { moderator: false, participant: false, initiator: true, orgMember: false });
    assert.deepEqual(await roles(OWN_MEMBER), { moderator: false, participant: false, initiator: false, orgMember: true });
    assert.deepEqual(await roles(STRANGER_INITIATOR), { moderator: false, participant: false, initiator: false, orgMember: false });
    assert.deepEqual(await roles(STRANGER_MEMBER), { moderator: false, participant: false, initiator: false, orgMember: false });
  });

  await t.test('a module context (project, roles, module, phases) is one statement', async () => {
    const before = database.stats.queries;
    const context = await loadModuleContext(db, 1, { id: OWN_MEMBER, isSuperuser: false });
    assert.equal(database.stats.queries - before, 1);
    assert.equal(context?.project.roles.orgMember, true);
    assert.equal(context?.module.isDraft, false);
    assert.equal(context?.phases.length, 1);
    assert.ok(context?.phases[0].startDate instanceof Date);
  });

  const comments = `/api/contenttypes/${contentTypeId('idea')}/objects/1/comments/`;
  const checks = [
    { name: 'read the ideas', method: 'GET', url: '/api/modules/1/ideas/', ok: 200 },
    { name: 'read the comments', method: 'GET', url: comments, ok: 200 },
    { name: 'edit the idea', method: 'PATCH', url: '/api/modules/1/ideas/1/', payload: { name: 'Taken over' }, ok: 200 },
    { name: 'list comments for moderation', method: 'GET', url: '/api/userdashboard/moderation/1/comments/', ok: 200 },
    { name: 'give moderator feedback', method: 'POST', url: '/api/comments/1/moderatorfeedback/', payload: { feedback_text: 'Noted' }, ok: 201 },
  ] as const;

  for (const check of checks) {
    await t.test(`an initiator or member of another organisation cannot ${check.name}; the project's own initiator can`, async () => {
      for (const stranger of [STRANGER_INITIATOR, STRANGER_MEMBER]) {
        const response = await request({ method: check.method, url: check.url, headers: await as(stranger), payload: 'payload' in check ? check.payload : undefined });
        assert.equal(response.status, 403, `user ${stranger}: ${response.text}`);
      }
      const own = await request({ method: check.method, url: check.url, headers: await as(OWN_INITIATOR), payload: 'payload' in check ? check.payload : undefined });
      assert.equal(own.status, check.ok, own.text);
    });
  }

  await t.test('another organisation’s initiator cannot follow the private project (it does not exist for them)', async () => {
    const response = await request({ method: 'PUT', url: '/api/follows/private/', headers: await as(STRANGER_INITIATOR), payload: { enabled: true } });
    assert.equal(response.status, 404);
  });
});
