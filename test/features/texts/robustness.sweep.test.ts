import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { signedIn } from '../../manage/world.js';
import { textsWorld } from './world.js';

const BAD_REFS = ['abc', '0', '2024-0', '9999-99999999999', '1.5', '%00', "1'--", '2024-00001%2F..'];
const BAD_BODIES: Record<string, string | string[]>[] = [
  {},
  { name: 'x'.repeat(10_000), description: 'y'.repeat(99_000), category: 'abc', labels: ['x', '99999999999'] },
  { name: 'a\u0000b', description: '\u0000', category: '-1', labels: '0' },
  { 'c0-id': 'abc', 'c0-name': 'x', 'c0-weight': '-5', 'c0p0-id': '99999999999', 'c0p0-text': '<img src=x onerror=alert(1)>', 'c0p0-weight': '1e9', 'c9999-name': 'far' },
  { 'c0-id': '999', 'c0-name': 'Someone else’s chapter', 'c0-weight': '1' },
  Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`c${i}-name`, 'x'])),
];

/** The pages of the three module types answer bad addresses and bodies with a 4xx, never a 5xx. */
test('no page of the text review, debate or prioritisation answers a server error to bad input', { timeout: 600_000 }, async () => {
  const t = await createTestApp();
  await load(t.db, textsWorld());
  const initiator = await signedIn(t.app, 'initiator');
  const failures: string[] = [];
  const check = (what: string, status: number) => {
    if (status >= 500) failures.push(`${what}: ${status}`);
  };
  for (const ref of BAD_REFS) {
    for (const path of [`/org/subjects/${ref}/`, `/org/topicprio/${ref}/`, `/org/text/chapters/${ref}/`, `/org/text/paragraphs/${ref}/`]) {
      check(`GET ${path}`, (await initiator.get(path)).status);
      for (const action of ['update/', 'delete/', 'rate/']) check(`POST ${path}${action}`, (await initiator.post(`${path}${action}`, { value: '7', name: 'x' })).status);
    }
  }
  for (const body of BAD_BODIES) {
    for (const path of ['/org/text/module/text/edit/', '/org/subjects/create/module/debate/', '/org/topicprio/create/module/prio/', '/org/text/module/debate/edit/', '/org/subjects/create/module/nothing/']) {
      check(`POST ${path} ${Object.keys(body).slice(0, 3).join(',')}`, (await initiator.post(path, body)).status);
    }
  }
  for (const query of ['?subject_ordering=x', '?subject_search=' + 'x'.repeat(500), '?topic_category=abc', '?topic_category=99999999', '?topic_ordering=name&topic_search=%25', '?comment=abc']) {
    for (const module of ['debate', 'prio', 'text']) check(`GET module ${module}${query}`, (await initiator.get(`/org/projects/module/${module}/${query}`)).status);
  }
  assert.deepEqual(failures, []);
});
