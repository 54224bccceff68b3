import { test } from 'node:test';
import { canChangeRemark, canSeeRemarks } from '../../../src/features/moderatorremarks/rules.js';
import { assertMatrix, projectContext } from '../../rules-matrix.js';

const MODERATING = ['moderator', 'initiator', 'superuser'] as const;
const everyState = { public: [...MODERATING], semipublic: [...MODERATING], private: [...MODERATING], draft: [...MODERATING], archived: [...MODERATING] };

test('a moderator remark is seen by the project’s moderators, its initiators and superusers in every state; never by participants, members or the public', () => {
  assertMatrix((role, state) => canSeeRemarks(projectContext(role, state)), everyState);
});

test('and changed by the same people (a+ add_/change_moderatorremark: is_allowed_moderate_project)', () => {
  assertMatrix((role, state) => canChangeRemark(projectContext(role, state)), everyState);
});
