import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createIdea } from '../../../src/features/idealike/services.js';
import { IDEA_KIND } from '../../../src/features/ideas/idea-kind.js';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { matrixWorld, mayAdd, mayView, moduleId, PHASES, type Role, ROLES, STATES, USER_ID } from './matrix.js';

const statusFor = (allowed: boolean, role: Role, ok: number) => (allowed ? ok : role === 'anonymous' ? 401 : 403);

test('the idea API applies the permission matrix (roles × phase before/active/after × project state)', async (t) => {
  const { db, request } = await createTestApp();
  await load(db, matrixWorld());
  const headers: Record<Role, Record<string, string>> = { anonymous: {} } as Record<Role, Record<string, string>>;
  for (const [role, id] of Object.entries(USER_ID)) headers[role as Role] = await tokenHeader(db, id);

  await t.test('POST creates an idea exactly where add_idea holds; 401 for anonymous, 403 for others', async () => {
    for (const role of ROLES) {
      for (const state of STATES) {
        for (const phase of PHASES) {
          const response = await request({
            method: 'POST',
            url: `/api/modules/${moduleId(state, phase)}/ideas/`,
            headers: headers[role],
            payload: { name: `by ${role}`, description: 'text' },
          });
          assert.equal(response.status, statusFor(mayAdd(role, state, phase), role, 201), `${role} in ${state}, phase ${phase}: ${response.text}`);
          if (role === 'anonymous' && response.status === 401) assert.ok(response.headers['www-authenticate']);
        }
      }
    }
  });

  await t.test('GET lists ideas exactly where view_idea holds', async () => {
    for (const role of ROLES) {
      for (const state of STATES) {
        const response = await request({ method: 'GET', url: `/api/modules/${moduleId(state, 'active')}/ideas/`, headers: headers[role] });
        assert.equal(response.status, statusFor(mayView(role, state), role, 200), `${role} in ${state}`);
      }
    }
  });

  await t.test('/api/app-modules/ lists the modules a user may see; has_idea_adding_permission agrees with add_idea', async () => {
    for (const role of ROLES.filter((r) => r !== 'anonymous')) {
      const response = await request({ method: 'GET', url: '/api/app-modules/', headers: headers[role] });
      assert.equal(response.status, 200);
      const byPk = new Map((response.body as { pk: number; has_idea_adding_permission: boolean }[]).map((m) => [m.pk, m.has_idea_adding_permission]));
      for (const state of STATES) {
        for (const phase of PHASES) {
          const expected = mayView(role, state) ? mayAdd(role, state, phase) : undefined;
          assert.equal(byPk.get(moduleId(state, phase)), expected, `${role} in ${state}, ${phase}`);
        }
      }
    }
  });

  await t.test('PATCH: the creator while they may add, moderators any time, nobody else', async () => {
    for (const state of STATES) {
      for (const phase of PHASES) {
        const ideaId = await createIdea(db, { moduleId: moduleId(state, phase), creatorId: USER_ID.participant, name: 'mine', description: 'x' }, IDEA_KIND);
        for (const role of ROLES) {
          const moderating = role === 'moderator' || role === 'initiator' || role === 'superuser';
          const allowed = moderating || (role === 'participant' && mayAdd('participant', state, phase));
          const response = await request({
            method: 'PATCH',
            url: `/api/modules/${moduleId(state, phase)}/ideas/${ideaId}/`,
            headers: headers[role],
            payload: { name: `renamed by ${role}` },
          });
          assert.equal(response.status, statusFor(allowed, role, 200), `${role} in ${state}, ${phase}: ${response.text}`);
        }
      }
    }
  });

  await t.test('DELETE: the creator while they may add, moderators any time, nobody else', async () => {
    for (const state of STATES) {
      for (const phase of PHASES) {
        for (const role of ROLES) {
          const ideaId = await createIdea(db, { moduleId: moduleId(state, phase), creatorId: USER_ID.participant, name: 'doomed', description: 'x' }, IDEA_KIND);
          const moderating = role === 'moderator' || role === 'initiator' || role === 'superuser';
          const allowed = moderating || (role === 'participant' && mayAdd('participant', state, phase));
          const response = await request({ method: 'DELETE', url: `/api/modules/${moduleId(state, phase)}/ideas/${ideaId}/`, headers: headers[role] });
          assert.equal(response.status, statusFor(allowed, role, 204), `${role} in ${state}, ${phase}`);
        }
      }
    }
  });

  await t.test('has_changing_permission and has_deleting_permission say the same for the caller', async () => {
    const module = moduleId('public', 'active');
    const ideaId = await createIdea(db, { moduleId: module, creatorId: USER_ID.participant, name: 'flags', description: 'x' }, IDEA_KIND);
    const flags = async (role: Role) => {
      const response = await request({ method: 'GET', url: `/api/modules/${module}/ideas/${ideaId}/`, headers: headers[role] });
      const body = response.body as Record<string, boolean>;
      return [body.has_changing_permission, body.has_deleting_permission, body.has_commenting_permission, body.has_rating_permission];
    };
    assert.deepEqual(await flags('anonymous'), [false, false, false, false]);
    assert.deepEqual(await flags('user'), [false, false, true, false]);
    assert.deepEqual(await flags('participant'), [true, true, true, false]);
    assert.deepEqual(await flags('moderator'), [true, true, true, true]);
  });
});
