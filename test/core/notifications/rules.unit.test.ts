import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canMarkNotificationRead, canSeeNotification } from '../../../src/core/notifications/rules.js';
import { sitePath } from '../../../src/core/notifications/services.js';

const notification = { recipientId: 5 };

test('only the recipient sees a notification or marks it read: not another user, not a superuser, not an anonymous visitor', () => {
  const cases: [string, { id: number } | null, boolean][] = [
    ['the recipient', { id: 5 }, true],
    ['another user', { id: 4 }, false],
    ['a superuser (user 1)', { id: 1 }, false],
    ['anonymous', null, false],
  ];
  for (const [who, user, expected] of cases) {
    assert.equal(canSeeNotification(user, notification), expected, `${who} sees`);
    assert.equal(canMarkNotificationRead(user, notification), expected, `${who} marks read`);
  }
});

test('a notification links only within the site: an address keeps its path, another scheme or a protocol-relative address leads nowhere', () => {
  assert.equal(sitePath('http://localhost:80/org/projects/p/?initialSlide=1#comment_3'), '/org/projects/p/?initialSlide=1#comment_3');
  assert.equal(sitePath('/org/ideas/1/'), '/org/ideas/1/');
  assert.equal(sitePath('//evil.example/x'), '');
  assert.equal(sitePath('javascript:alert(1)'), '');
  assert.equal(sitePath(''), '');
});
