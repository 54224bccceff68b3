import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canModerateComments, canViewModerationDashboard } from '../../../src/features/moderation/rules.js';
import { assertMatrix, MODERATING, projectContext } from '../../rules-matrix.js';

test('moderate comments: the project\'s moderators, initiators of its organisation and superusers, in every project state', () => {
  assertMatrix((role, state) => canModerateComments(projectContext(role, state)), { public: MODERATING, semipublic: MODERATING, private: MODERATING, draft: MODERATING, archived: MODERATING });
});

test('the moderation dashboard: a signed-in user who may moderate at least one project', () => {
  const table: [{ id: number } | null, boolean, boolean][] = [
    [null, false, false],
    [null, true, false],
    [{ id: 1 }, false, false],
    [{ id: 1 }, true, true],
  ];
  for (const [user, mayModerate, expected] of table) assert.equal(canViewModerationDashboard(user, mayModerate), expected, `${user ? 'user' : 'visitor'} ${mayModerate}`);
});
