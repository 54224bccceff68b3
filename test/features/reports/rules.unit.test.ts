import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canReport, reportDescriptionError } from '../../../src/features/reports/rules.js';
import type { ModuleContext } from '../../../src/core/modules/rules.js';
import { assertMatrix, MODERATING, projectContext, type Role, SIGNED_IN, type State } from '../../rules-matrix.js';

const context = (role: Role, state: State, moduleDraft = false): ModuleContext => ({ project: projectContext(role, state), module: { id: 1, isDraft: moduleDraft }, phases: [], now: new Date('2026-06-01T12:00:00Z') });

test('report an idea or comment: every signed-in user who may see the module, whatever the phase', () => {
  assertMatrix((role, state) => canReport(context(role, state)), {
    public: SIGNED_IN,
    semipublic: SIGNED_IN,
    private: ['participant', 'orgMember', ...MODERATING],
    draft: MODERATING,
    archived: SIGNED_IN,
  });
});

test('report in a draft module: its moderating roles only', () => {
  assertMatrix((role, state) => canReport(context(role, state, true)), { public: MODERATING, semipublic: MODERATING, private: MODERATING, draft: MODERATING, archived: MODERATING });
});

test('report reason: not blank, at most 1024 characters', () => {
  const blank = 'This field may not be blank.';
  const tooLong = 'Ensure this field has no more than 1024 characters.';
  const cases: [string, string | null][] = [
    ['', blank],
    ['   ', blank],
    ['\n\t', blank],
    ['x', null],
    ['x'.repeat(1024), null],
    ['x'.repeat(1025), tooLong],
  ];
  for (const [reason, expected] of cases) assert.equal(reportDescriptionError(reason), expected, `${JSON.stringify(reason.slice(0, 5))} (${reason.length})`);
});
