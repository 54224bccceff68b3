import { test } from 'node:test';
import { canFollowProject } from '../../../src/core/follows/rules.js';
import { assertMatrix, MODERATING, projectContext, SIGNED_IN } from '../../rules-matrix.js';

test('follow a project: every signed-in user who may see it; visitors never', () => {
  assertMatrix((role, state) => canFollowProject(projectContext(role, state)), {
    public: SIGNED_IN,
    semipublic: SIGNED_IN,
    private: ['participant', 'orgMember', ...MODERATING],
    draft: MODERATING,
    archived: SIGNED_IN,
  });
});
