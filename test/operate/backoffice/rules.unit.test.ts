import assert from 'node:assert/strict';
import { test } from 'node:test';
import { USER_SEARCH_MAX_LENGTH } from '../../../src/operate/backoffice/rules.js';

test('the back-office user search holds at most 200 characters', () => {
  assert.equal(USER_SEARCH_MAX_LENGTH, 200);
});
