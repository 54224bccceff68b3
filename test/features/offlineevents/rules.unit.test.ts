import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canManageOfflineEvents, canViewOfflineEvent, documentError, readOfflineEventForm } from '../../../src/features/offlineevents/rules.js';
import { assertMatrix, projectContext } from '../../rules-matrix.js';

const EVERYONE = ['anonymous', 'user', 'participant', 'orgMember', 'moderator', 'initiator', 'superuser'] as const;

test('view_offlineevent: as the project — public and semi-public for everyone, private for members, drafts for moderators and initiators', () => {
  assertMatrix((role, state) => canViewOfflineEvent(projectContext(role, state)), {
    public: [...EVERYONE],
    semipublic: [...EVERYONE],
    private: ['participant', 'orgMember', 'moderator', 'initiator', 'superuser'],
    draft: ['moderator', 'initiator', 'superuser'],
    archived: [...EVERYONE],
  });
});

test('add/change offline events: the organisation’s initiators and superusers in every state; moderators do not enter the dashboard', () => {
  const managers = ['initiator', 'superuser'] as const;
  assertMatrix((role, state) => canManageOfflineEvents(projectContext(role, state)), { public: [...managers], semipublic: [...managers], private: [...managers], draft: [...managers], archived: [...managers] });
});

const say = (key: string, vars?: Record<string, string | number>) => (vars ? `${key} ${JSON.stringify(vars)}` : key);

test('the event form: title, type, date and description required; a+’s sizes; a date that does not exist is refused', () => {
  const empty = readOfflineEventForm({ name: ' ', event_type: '', date: '', description: '<p></p>' }, 'Europe/Berlin', say);
  assert.equal(empty.input, null);
  assert.deepEqual(Object.keys(empty.errors).sort(), ['date', 'description', 'event_type', 'name']);
  const long = readOfflineEventForm({ name: 'x'.repeat(121), event_type: 'y'.repeat(31), date: '2026-02-29T10:00', description: '<p>ok</p>' }, 'Europe/Berlin', say);
  assert.deepEqual(long.errors, {
    name: ['Ensure this field has no more than %(max)s characters. {"max":120}'],
    event_type: ['Ensure this field has no more than %(max)s characters. {"max":30}'],
    date: ['Enter a valid date and time.'],
  });
  const image = readOfflineEventForm({ name: 'a', event_type: 'b', date: '2026-12-07T18:00', description: '<p><img src="/media/x.png"></p>' }, 'Europe/Berlin', say);
  assert.deepEqual(image.errors, { description: ['Please add an alternative text for all images.'] });
  const ok = readOfflineEventForm({ name: ' Meeting ', event_type: 'Workshop', date: '2026-12-07T18:00', description: '<p>Come.</p>' }, 'Europe/Berlin', say);
  assert.deepEqual(ok.errors, {});
  assert.deepEqual(ok.input, { name: 'Meeting', eventType: 'Workshop', date: new Date('2026-12-07T17:00:00Z'), description: '<p>Come.</p>' });
});

test('the document is a PDF of at most 5 MB', () => {
  assert.equal(documentError(Buffer.from('%PDF-1.7 ...')), null);
  assert.equal(documentError(Buffer.from('GIF89a')), 'The document must be a PDF file.');
  assert.equal(documentError(Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(5 * 1024 * 1024)])), 'The document may be at most 5 MB.');
});
