import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canManageOrganisation, ORGANISATION_TERMS_REQUIRED, organisationNameError, organisationTermsAsked, organisationTermsError, type OrganisationContext } from '../../../src/core/organisations/rules.js';

type Who = 'anonymous' | 'user' | 'superuser';
const user = (who: Who): OrganisationContext['user'] => (who === 'anonymous' ? null : { id: 3, isSuperuser: who === 'superuser' });

test('manage an organisation: superusers and initiators of that organisation; members and visitors not', () => {
  // [who, initiator, member, expected]
  const table: [Who, boolean, boolean, boolean][] = [
    ['anonymous', false, false, false],
    ['anonymous', true, false, false],
    ['anonymous', false, true, false],
    ['user', false, false, false],
    ['user', false, true, false],
    ['user', true, false, true],
    ['user', true, true, true],
    ['superuser', false, false, true],
    ['superuser', false, true, true],
    ['superuser', true, true, true],
  ];
  for (const [who, initiator, member, expected] of table) {
    assert.equal(canManageOrganisation({ organisationId: 1, user: user(who), roles: { initiator, member } }), expected, `${who} initiator=${initiator} member=${member}`);
  }
});

test('organisation name: required, at most 512 characters', () => {
  const tooLong = 'Ensure this field has no more than 512 characters.';
  const cases: [string, string | null][] = [
    ['', 'This field is required.'],
    ['A', null],
    ['x'.repeat(512), null],
    ['x'.repeat(513), tooLong],
  ];
  for (const [name, expected] of cases) assert.equal(organisationNameError(name), expected, `length ${name.length}`);
});

test('organisation terms: asked of a signed-in user while the organisation has written terms they have not agreed to; a form is refused only if asked and not ticked', () => {
  // [signedIn, written, agreed, asked]
  const table: [boolean, boolean, boolean, boolean][] = [
    [false, false, false, false],
    [false, false, true, false],
    [false, true, false, false],
    [false, true, true, false],
    [true, false, false, false],
    [true, false, true, false],
    [true, true, false, true],
    [true, true, true, false],
  ];
  for (const [signedIn, written, agreed, asked] of table) {
    const terms = { slug: 'org', signedIn, written, agreed };
    const label = `signedIn=${signedIn} written=${written} agreed=${agreed}`;
    assert.equal(organisationTermsAsked(terms), asked, label);
    assert.equal(organisationTermsError(terms, false), asked ? ORGANISATION_TERMS_REQUIRED : null, `${label}, not ticked`);
    assert.equal(organisationTermsError(terms, true), null, `${label}, ticked`);
  }
  assert.equal(organisationTermsAsked(null), false, 'no organisation terms at all');
  assert.equal(organisationTermsError(null, false), null);
  assert.equal(ORGANISATION_TERMS_REQUIRED, "Please agree to the organisation's terms of use.");
});
