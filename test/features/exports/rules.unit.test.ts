import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canExport, hasExport, isExportOffered, mayExportModule } from '../../../src/features/exports/rules.js';
import { assertMatrix, MODERATING, NOBODY, projectContext } from '../../rules-matrix.js';

test('export: the project\'s moderators, initiators of its organisation and superusers', () => {
  assertMatrix((role, state) => canExport(projectContext(role, state)), { public: MODERATING, semipublic: MODERATING, private: MODERATING, draft: MODERATING, archived: MODERATING });
});

test('the module types with an export: Brainstorming, Idea Challenge, Poll, Text Review, Debate, Prioritization', () => {
  const table: [string, boolean][] = [['BS', true], ['IC', true], ['PO', true], ['TR', true], ['DB', true], ['TP', true], ['', false], ['XX', false]];
  for (const [type, expected] of table) assert.equal(hasExport(type), expected, type);
});

test('the export is offered for an added module of a published project, of a type with an export', () => {
  // [project draft, module draft, type, offered]
  const table: [boolean, boolean, string, boolean][] = [
    [false, false, 'IC', true],
    [false, false, 'BS', true],
    [false, false, 'PO', true],
    [false, false, 'XX', false],
    [false, false, 'TR', true],
    [true, false, 'TR', false],
    [false, true, 'IC', false],
    [true, false, 'IC', false],
    [true, true, 'BS', false],
  ];
  for (const [projectDraft, moduleDraft, blueprintType, expected] of table) {
    assert.equal(isExportOffered({ isDraft: projectDraft }, { isDraft: moduleDraft, blueprintType }), expected, `project draft ${projectDraft}, module draft ${moduleDraft}, ${blueprintType}`);
  }
});

test('may export a module: moderating roles, where the export is offered (a published project, archived or not)', () => {
  const added = { isDraft: false, blueprintType: 'IC' };
  assertMatrix((role, state) => mayExportModule(projectContext(role, state), added), { public: MODERATING, semipublic: MODERATING, private: MODERATING, draft: NOBODY, archived: MODERATING });
  const none = { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY };
  assertMatrix((role, state) => mayExportModule(projectContext(role, state), { isDraft: true, blueprintType: 'BS' }), none, 'draft module');
  assertMatrix((role, state) => mayExportModule(projectContext(role, state), { isDraft: false, blueprintType: 'XX' }), none, 'a module of an unknown type');
});
