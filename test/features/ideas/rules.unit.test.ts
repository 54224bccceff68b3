import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canAddIdea, canChangeIdea, canCommentIdea, canDeleteIdea, canRateIdea, canViewIdeas, type IdeaRuleContext } from '../../../src/features/idealike/rules.js';
import { NO_ROLES, type ProjectContext } from '../../../src/core/projects/rules.js';
import { mayAdd, mayView, PHASES, type PhaseTime, type Role, ROLES, type State, STATES } from './matrix.js';

const DAY = 86400000;
const now = new Date('2026-06-01T12:00:00Z');
const at = (days: number) => new Date(now.getTime() + days * DAY);
const PHASE_DATES: Record<PhaseTime, [Date, Date]> = { before: [at(5), at(10)], active: [at(-1), at(10)], after: [at(-10), at(-5)] };

function context(role: Role, state: State, phase: PhaseTime, type = 'a4_candy_ideas:collect'): IdeaRuleContext {
  const project: ProjectContext = {
    access: state === 'semipublic' ? 'SEMIPUBLIC' : state === 'private' ? 'PRIVATE' : 'PUBLIC',
    isDraft: state === 'draft',
    isArchived: state === 'archived',
    user: role === 'anonymous' ? null : { id: 7, isSuperuser: role === 'superuser' },
    roles: {
      ...NO_ROLES,
      moderator: role === 'moderator',
      initiator: role === 'initiator',
      participant: role === 'participant',
      orgMember: role === 'orgMember',
    },
  };
  const [startDate, endDate] = PHASE_DATES[phase];
  return { project, module: { id: 1, isDraft: false }, phases: [{ id: 1, type, startDate, endDate, weight: 0 }], now };
}

const cases = ROLES.flatMap((role) => STATES.flatMap((state) => PHASES.map((phase) => ({ role, state, phase }))));

test('add_idea: moderators, initiators and superusers any time; members only while a collect phase runs', () => {
  for (const { role, state, phase } of cases) {
    assert.equal(canAddIdea(context(role, state, phase), 'idea'), mayAdd(role, state, phase), `${role} in a ${state} project, phase ${phase}`);
  }
});

test('change_idea and delete_idea: the creator as long as they may add; moderators on every idea', () => {
  for (const { role, state, phase } of cases) {
    const c = context(role, state, phase);
    const own = { creatorId: 7 };
    const others = { creatorId: 99 };
    const moderating = role === 'moderator' || role === 'initiator' || role === 'superuser';
    assert.equal(canChangeIdea(c, own, 'idea'), role !== 'anonymous' && mayAdd(role, state, phase), `${role} own idea, ${state}, ${phase}`);
    assert.equal(canChangeIdea(c, others, 'idea'), moderating, `${role} another's idea, ${state}, ${phase}`);
    assert.equal(canDeleteIdea(c, own, 'idea'), canChangeIdea(c, own, 'idea'));
  }
});

test('view_idea: public contexts for everyone, private for members, draft for moderators, any phase', () => {
  for (const { role, state, phase } of cases) {
    assert.equal(canViewIdeas(context(role, state, phase)), mayView(role, state), `${role} in a ${state} project, phase ${phase}`);
  }
});

test('rating and commenting follow the active phase type for members; moderators may always', () => {
  const features: Record<string, { rate: boolean; comment: boolean; add: boolean }> = {
    'a4_candy_ideas:issue': { rate: false, comment: false, add: true },
    'a4_candy_ideas:collect': { rate: false, comment: true, add: true },
    'a4_candy_ideas:rating': { rate: true, comment: false, add: false },
    'a4_candy_ideas:feedback': { rate: true, comment: true, add: false },
    'a4_candy_ideas:collect_feedback': { rate: true, comment: true, add: true },
    'a4polls:voting': { rate: false, comment: false, add: false },
  };
  for (const [type, allows] of Object.entries(features)) {
    for (const role of ['user', 'participant'] as const) {
      const c = context(role, 'public', 'active', type);
      assert.equal(canRateIdea(c, 'idea'), allows.rate, `${role} rate in ${type}`);
      assert.equal(canCommentIdea(c, 'idea'), allows.comment, `${role} comment in ${type}`);
      assert.equal(canAddIdea(c, 'idea'), allows.add, `${role} add in ${type}`);
      for (const phase of ['before', 'after'] as const) {
        const idle = context(role, 'public', phase, type);
        assert.equal(canRateIdea(idle, 'idea') || canCommentIdea(idle, 'idea') || canAddIdea(idle, 'idea'), false, `${role} ${phase} a ${type} phase`);
      }
    }
    for (const role of ['moderator', 'initiator', 'superuser'] as const) {
      const c = context(role, 'private', 'after', type);
      assert.ok(canRateIdea(c, 'idea') && canCommentIdea(c, 'idea') && canAddIdea(c, 'idea'), `${role} after a ${type} phase`);
    }
    assert.equal(canRateIdea(context('anonymous', 'public', 'active', type), 'idea') || canCommentIdea(context('anonymous', 'public', 'active', type), 'idea'), false);
  }
});

test('a user who is no member of a private or semi-public project may not rate or comment there', () => {
  for (const state of ['private', 'semipublic', 'draft', 'archived'] as const) {
    const c = context('user', state, 'active', 'a4_candy_ideas:collect_feedback');
    assert.equal(canRateIdea(c, 'idea') || canCommentIdea(c, 'idea'), false, state);
  }
});
