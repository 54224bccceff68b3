import '../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayExportModule } from '../../src/features/exports/rules.js';
import { validatePhases } from '../../src/core/modules/rules.js';
import { canManageOrganisation } from '../../src/core/organisations/rules.js';
import { canManageProject, NO_ROLES, projectTopicsError, type ProjectContext } from '../../src/core/projects/rules.js';
import { hasFinished, publishCheck } from '../../src/manage/projects/completeness.js';
import { fromLocalInput, toLocalInput } from '../../src/i18n/dates.js';

const user = { id: 1, isSuperuser: false };
const project = (roles: Partial<ProjectContext['roles']>, u: ProjectContext['user'] = user): ProjectContext => ({ access: 'PUBLIC', isDraft: true, isArchived: false, user: u, roles: { ...NO_ROLES, ...roles } });

test('only superusers and initiators of the project\'s organisation manage it; moderators, participants and members do not', () => {
  const cases: [string, ProjectContext, boolean][] = [
    ['anonymous', project({}, null), false],
    ['user', project({}), false],
    ['participant', project({ participant: true }), false],
    ['organisation member', project({ orgMember: true }), false],
    ['moderator', project({ moderator: true }), false],
    ['initiator', project({ initiator: true }), true],
    ['superuser', project({}, { id: 1, isSuperuser: true }), true],
  ];
  for (const [who, context, expected] of cases) assert.equal(canManageProject(context), expected, who);
});

test('export (§B1, §B9, §B16): moderators, initiators and superusers, for an added idea module of a published project only', () => {
  const published = (roles: Partial<ProjectContext['roles']>, u: ProjectContext['user'] = user) => ({ ...project(roles, u), isDraft: false });
  const who: [string, ProjectContext, boolean][] = [
    ['anonymous', published({}, null), false],
    ['user', published({}), false],
    ['participant', published({ participant: true }), false],
    ['organisation member', published({ orgMember: true }), false],
    ['moderator', published({ moderator: true }), true],
    ['initiator', published({ initiator: true }), true],
    ['superuser', published({}, { id: 1, isSuperuser: true }), true],
  ];
  const added = { isDraft: false, blueprintType: 'IC' };
  for (const [name, context, expected] of who) assert.equal(mayExportModule(context, added), expected, name);
  const moderator = published({ moderator: true });
  assert.equal(mayExportModule(moderator, { isDraft: false, blueprintType: 'BS' }), true, 'brainstorming');
  assert.equal(mayExportModule(moderator, { isDraft: true, blueprintType: 'IC' }), false, 'a module not added');
  assert.equal(mayExportModule({ ...moderator, isDraft: true }, added), false, 'a draft project');
  // Every module type of the platform exports its contributions now (the interactive event its questions, issue 37.6).
  assert.equal(mayExportModule(moderator, { isDraft: false, blueprintType: 'IE' }), true, 'the questions of an interactive event');
  assert.equal(mayExportModule(moderator, { isDraft: false, blueprintType: 'XX' }), false, 'a type without an export');
});

test('topics: known codes, at most two', () => {
  assert.equal(projectTopicsError([]), null);
  assert.equal(projectTopicsError(['EDU', 'TRA']), null);
  assert.deepEqual(projectTopicsError(['EDU', 'TRA', 'ENV']), ['Choose at most %(max)s topics.', { max: 2 }]);
  assert.deepEqual(projectTopicsError(['edu']), ['Select a valid choice.']);
  assert.deepEqual(projectTopicsError(['constructor']), ['Select a valid choice.'], 'no prototype names');
});

test('only superusers and initiators of that organisation manage an organisation', () => {
  const org = (initiator: boolean, member: boolean, u: { id: number; isSuperuser: boolean } | null = user) => ({ organisationId: 1, user: u, roles: { initiator, member } });
  assert.equal(canManageOrganisation(org(false, false, null)), false);
  assert.equal(canManageOrganisation(org(true, false, null)), false);
  assert.equal(canManageOrganisation(org(false, true)), false);
  assert.equal(canManageOrganisation(org(false, false)), false);
  assert.equal(canManageOrganisation(org(true, false)), true);
  assert.equal(canManageOrganisation(org(false, false, { id: 1, isSuperuser: true })), true);
});

const d = (iso: string) => new Date(iso);
const phase = (start: string | null, end: string | null, name = 'P', description = 'D') => ({ name, description, startDate: start ? d(start) : null, endDate: end ? d(end) : null });

test('phases: both dates or none, end not before start, no overlap, same order as the form', () => {
  assert.deepEqual(validatePhases([phase('2030-01-01T00:00Z', null)], false).map((p) => p.message), ['Either both or no date has to be set.']);
  assert.deepEqual(validatePhases([phase('2030-01-02T00:00Z', '2030-01-01T00:00Z')], false).map((p) => p.message), ['End date can not be before start date.']);
  assert.deepEqual(validatePhases([phase('2030-01-01T00:00Z', '2030-01-01T00:00Z')], false), []);
  const overlap = [phase('2030-01-01T00:00Z', '2030-01-10T00:00Z'), phase('2030-01-09T00:00Z', '2030-01-20T00:00Z')];
  assert.deepEqual(validatePhases(overlap, false).map((p) => p.message), ['Phases cannot run at the same time and must follow after each other.']);
  const touching = [phase('2030-01-01T00:00Z', '2030-01-10T00:00Z'), phase('2030-01-10T00:00Z', '2030-01-20T00:00Z')];
  assert.deepEqual(validatePhases(touching, false), []);
  const reversed = [phase('2030-02-01T00:00Z', '2030-02-10T00:00Z'), phase('2030-01-01T00:00Z', '2030-01-10T00:00Z')];
  assert.deepEqual(validatePhases(reversed, false).map((p) => p.message), ['Phases need to be in same order as in form.']);
  assert.deepEqual(validatePhases([phase(null, null, '', '')], false), []);
  assert.deepEqual(validatePhases([phase(null, null, '', '')], true).map((p) => p.field), ['name', 'description']);
  assert.deepEqual(validatePhases([phase(null, null, 'x'.repeat(81))], false).map((p) => p.field), ['name']);
});

test("publishing needs the platform's imprint, data protection notice and terms of use written (issue 22.3)", () => {
  const complete = { name: 'P', description: 'D', information: '<p>I</p>' };
  const module = { slug: 'm', name: 'M', description: 'MD', isDraft: false, phases: [phase('2030-01-01T00:00Z', '2030-01-02T00:00Z')] };
  const check = publishCheck(complete, [module], ['terms', 'imprint', 'netiquette', 'privacy']);
  assert.deepEqual(check.ok ? [] : check.missing.map((m) => [m.component, m.legal, m.field]), [
    ['legal', 'imprint', 'Imprint of the platform'],
    ['legal', 'privacy', 'Data protection notice of the platform'],
    ['legal', 'terms', 'Terms of use of the platform'],
  ]);
});

test('publishing needs an added module and every counted field of the project and the added modules; draft modules do not count', () => {
  const complete = { name: 'P', description: 'D', information: '<p>I</p>' };
  const module = (isDraft: boolean, phases = [phase('2030-01-01T00:00Z', '2030-01-02T00:00Z')]) => ({ slug: 'm', name: 'M', description: 'MD', isDraft, phases });
  assert.deepEqual(publishCheck(complete, [], []), { ok: false, noModule: true, missing: [] });
  assert.deepEqual(publishCheck(complete, [module(false)], []), { ok: true });
  assert.deepEqual(publishCheck(complete, [module(false), module(true, [phase(null, null)])], ['netiquette']), { ok: true }, 'the netiquette is not required');
  const check = publishCheck({ name: 'P', description: '', information: '<p> </p>' }, [module(false, [phase(null, null, '', 'D')])], []);
  assert.equal(check.ok, false);
  if (!check.ok) {
    assert.deepEqual(
      check.missing.map((m) => [m.component, m.field, m.vars?.n ?? '']),
      [
        ['basic', 'Short description of your project', ''],
        ['information', 'Description of your project', ''],
        ['phases', 'Phase %(n)s: name', '1'],
        ['phases', 'Phase %(n)s: start date', '1'],
        ['phases', 'Phase %(n)s: end date', '1'],
      ],
    );
  }
});

test('a project has finished when it has added modules and none of their phases runs or is still to come', () => {
  const now = d('2030-06-01T00:00Z');
  const module = (isDraft: boolean, start: string | null, end: string | null) => ({ slug: 'm', name: 'M', description: 'D', isDraft, phases: [phase(start, end)] });
  assert.equal(hasFinished([], now), false);
  assert.equal(hasFinished([module(false, '2030-01-01T00:00Z', '2030-02-01T00:00Z')], now), true);
  assert.equal(hasFinished([module(false, '2030-05-01T00:00Z', '2030-07-01T00:00Z')], now), false);
  assert.equal(hasFinished([module(false, null, null)], now), false);
  assert.equal(hasFinished([module(false, '2030-01-01T00:00Z', '2030-02-01T00:00Z'), module(true, '2030-07-01T00:00Z', '2030-08-01T00:00Z')], now), true);
});

test('dates in the form are wall-clock times of the platform time zone, also across daylight saving time', () => {
  assert.equal(fromLocalInput('2030-01-15T10:00', 'Europe/Berlin')?.toISOString(), '2030-01-15T09:00:00.000Z');
  assert.equal(fromLocalInput('2030-07-15T10:00', 'Europe/Berlin')?.toISOString(), '2030-07-15T08:00:00.000Z');
  assert.equal(fromLocalInput('2030-07-15', 'Europe/Berlin')?.toISOString(), '2030-07-15T21:59:00.000Z');
  assert.equal(fromLocalInput('2030-02-30T10:00', 'Europe/Berlin'), null);
  assert.equal(fromLocalInput('tomorrow', 'Europe/Berlin'), null);
  assert.equal(toLocalInput(d('2030-07-15T08:00:00Z'), 'Europe/Berlin'), '2030-07-15T10:00');
});
