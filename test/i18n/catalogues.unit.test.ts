import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deBudgeting } from '../../src/i18n/de-budgeting.js';
import { deConsultation } from '../../src/i18n/de-consultation.js';
import { deContent } from '../../src/i18n/de-content.js';
import { deDashboard } from '../../src/i18n/de-dashboard.js';
import { deExports } from '../../src/i18n/de-exports.js';
import { deInsights } from '../../src/i18n/de-insights.js';
import { deLive } from '../../src/i18n/de-live.js';
import { deMaps } from '../../src/i18n/de-maps.js';
import { deNotifications } from '../../src/i18n/de-notifications.js';
import { deOperations } from '../../src/i18n/de-operations.js';
import { deParticipation } from '../../src/i18n/de-participation.js';
import { dePolls } from '../../src/i18n/de-polls.js';
import { deCommon } from '../../src/i18n/de.js';
import { deTexts } from '../../src/i18n/de-texts.js';
import { deEvents } from '../../src/i18n/de-events.js';
import { deResults } from '../../src/i18n/de-results.js';
import { deCustomFields } from '../../src/i18n/de-customfields.js';
import { deContentPages } from '../../src/i18n/de-sitecontent.js';
import { deGuests } from '../../src/i18n/de-guests.js';
import { deSummaries } from '../../src/i18n/de-summaries.js';

test('every German text has one home: no English key is in two catalogues', () => {
  const catalogues = { deParticipation, deDashboard, deExports, deInsights, deContent, deOperations, deConsultation, dePolls, deTexts, deMaps, deBudgeting, deLive, deNotifications, deEvents, deResults, deCustomFields, deContentPages, deGuests, deSummaries, deCommon };
  const homes = new Map<string, string[]>();
  for (const [name, catalogue] of Object.entries(catalogues)) {
    for (const key of Object.keys(catalogue)) homes.set(key, [...(homes.get(key) ?? []), name]);
  }
  const twice = [...homes].filter(([, names]) => names.length > 1).map(([key, names]) => `${key} (${names.join(', ')})`);
  assert.deepEqual(twice, [], 'a word several areas use goes to deCommon in src/i18n/de.ts');
});
