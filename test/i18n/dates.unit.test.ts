import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDate, formatDateTime, formatShortDate } from '../../src/i18n/dates.js';
import { chooseLanguage, t } from '../../src/i18n/index.js';

const tz = 'Europe/Berlin';

test('date and time display in en and de as the reference formats them', () => {
  const july = new Date('2022-07-01T17:00:00+02:00');
  assert.equal(formatDateTime(new Date('2022-07-01T15:00:00Z'), 'en', tz), 'July 1, 2022, 5 p.m.');
  assert.equal(formatDateTime(new Date('2022-07-01T17:00:00Z'), 'de', tz), '1. Juli 2022, 19:00');
  assert.equal(formatDate(july, 'en', tz), 'July 1, 2022');
  assert.equal(formatDate(july, 'de', tz), '1. Juli 2022');
  assert.equal(formatDateTime(new Date('2024-03-05T14:07:00Z'), 'en', tz), 'March 5, 2024, 3:07 p.m.');
  assert.equal(formatDateTime(new Date('2024-09-05T09:00:00Z'), 'en', tz), 'Sept. 5, 2024, 11 a.m.');
  assert.equal(formatDateTime(new Date('2024-09-04T22:00:00Z'), 'en', tz), 'Sept. 5, 2024, midnight');
  assert.equal(formatDateTime(new Date('2024-09-05T10:00:00Z'), 'en', tz), 'Sept. 5, 2024, noon');
  assert.equal(formatShortDate(july, tz), '01.07.2022');
});

test('language: explicit choice, then the user, then Accept-Language, then English', () => {
  assert.equal(chooseLanguage({ explicit: 'de', user: 'en', acceptLanguage: 'en' }), 'de');
  assert.equal(chooseLanguage({ user: 'de', acceptLanguage: 'en' }), 'de');
  assert.equal(chooseLanguage({ acceptLanguage: 'fr-FR, de;q=0.8, en;q=0.5' }), 'de');
  assert.equal(chooseLanguage({ acceptLanguage: 'fr' }), 'en');
  assert.equal(t('de', 'unknown user'), 'unbekannter Nutzer');
  assert.equal(t('de', '%(time_left)s remaining', { time_left: '3 Tage' }), '3 Tage verbleibend');
});
