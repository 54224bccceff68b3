import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canModerate, canParticipate, canViewProject, mayBecomeGuest, type ProjectContext } from '../../../src/core/projects/rules.js';
import { projectContext, STATES, type State } from '../../rules-matrix.js';

/*
 * The guest (issue 34.4) as the project rules see it: a signed-in user marked `isGuest`, who takes
 * part only where the project allows guests (a4 `guest_may_participate`), sees what a plain user
 * sees, and moderates nothing. The tables are written out per state, not computed by the rules.
 */

const guestIn = (state: State, allowsGuests: boolean): ProjectContext => ({ ...projectContext('user', state), allowsGuests, user: { id: 7, isSuperuser: false, isGuest: true } });
const anonymousIn = (state: State, allowsGuests: boolean): ProjectContext => ({ ...projectContext('anonymous', state), allowsGuests });
const statesWhere = (rule: (state: State) => boolean) => STATES.filter(rule);

test('a guest takes part only in a live, not archived public project that allows guests', () => {
  assert.deepEqual(statesWhere((s) => canParticipate(guestIn(s, true))), ['public']);
  assert.deepEqual(statesWhere((s) => canParticipate(guestIn(s, false))), []);
});

test('a plain user with an account takes part as before, whatever the guest setting', () => {
  for (const allowsGuests of [true, false]) assert.deepEqual(statesWhere((s) => canParticipate({ ...projectContext('user', s), allowsGuests })), ['public']);
});

test('a guest sees what a plain user sees, and moderates nothing', () => {
  assert.deepEqual(statesWhere((s) => canViewProject(guestIn(s, false))), ['public', 'semipublic', 'archived']);
  assert.deepEqual(statesWhere((s) => canModerate(guestIn(s, true))), []);
});

test('"take part as a guest" is offered to anonymous visitors of a live public project that allows guests, nobody else', () => {
  assert.deepEqual(statesWhere((s) => mayBecomeGuest(anonymousIn(s, true))), ['public']);
  assert.deepEqual(statesWhere((s) => mayBecomeGuest(anonymousIn(s, false))), []);
  assert.deepEqual(statesWhere((s) => mayBecomeGuest(guestIn(s, true))), [], 'a guest is one already');
  assert.deepEqual(statesWhere((s) => mayBecomeGuest({ ...projectContext('user', s), allowsGuests: true })), []);
});
