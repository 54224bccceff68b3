import assert from 'node:assert/strict';
import { test } from 'node:test';
import { showsInsightsPublicly } from '../../../src/core/insights/rules.js';

test('insights are shown on the public Result tab only when the initiator ticked "show insights"', () => {
  assert.equal(showsInsightsPublicly({ showInsights: true }), true);
  assert.equal(showsInsightsPublicly({ showInsights: false }), false);
});
