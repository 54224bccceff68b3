import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FixtureError, loadFixture } from '../../src/cli/loaddata.js';
import { customFieldAnswers, customFields } from '../../src/features/customfields/schema.js';
import { basicWorldWith } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const options = { baseDir: process.cwd() };

/** A module's two questions and an idea's answers to them, as the a+ import writes them. */
const sample = () =>
  basicWorldWith({
    ideas: [{ id: 4, module: 1, creator: 5, name: 'Bänke', description: '<p>Mehr Bänke</p>', category: 1 }],
    custom_fields: [
      { id: 3, module: 1, label: 'Stadtteil', kind: 'choice', required: true, weight: 1, choices: [{ id: 7, label: 'Nord' }, { id: 8, label: 'Süd' }] },
      { id: 4, module: 1, label: 'Warum?', kind: 'text', weight: 2 },
    ],
    custom_field_answers: [
      { field: 3, target: { type: 'idea', id: 4 }, choice: 8 },
      { field: 4, target: { type: 'idea', id: 4 }, value: 'Müde Beine' },
    ],
  });

test('loaddata places a module’s questions (ids kept) and an idea’s answers, which the idea API then shows', async () => {
  const { db, request } = await createTestApp();
  const loaded = await loadFixture(db, sample(), options);
  assert.deepEqual([loaded.custom_fields, loaded.custom_field_answers], [2, 2]);
  const idea = await request({ url: '/api/modules/1/ideas/4/' });
  assert.deepEqual((idea.body as { custom_fields: unknown[] }).custom_fields, [
    { id: 3, question: 'Stadtteil', kind: 'choice', answer: 'Süd', choice: 8 },
    { id: 4, question: 'Warum?', kind: 'text', answer: 'Müde Beine', choice: null },
  ]);
});

test('an answer to another module’s question, or with another question’s choice, stores nothing and names the record', async () => {
  const { db } = await createTestApp();
  const cases: [(f: ReturnType<typeof sample>) => void, string][] = [
    [(f) => (f.custom_field_answers = [{ field: 3, target: { type: 'idea', id: 4 }, choice: 99 }]), 'custom_field_answers[0].choice: no choice 99 of custom field 3'],
    [(f) => (f.custom_field_answers = [{ field: 9, target: { type: 'idea', id: 4 }, value: 'x' }]), 'custom_field_answers[0].field: no custom field 9'],
    [(f) => ((f.custom_fields = [{ id: 3, module: 9, label: 'Q', kind: 'text' }]), (f.custom_field_answers = [])), 'custom_fields[0].module: no module 9'],
  ];
  for (const [spoil, message] of cases) {
    const fixture = sample();
    spoil(fixture);
    await assert.rejects(loadFixture(db, fixture, options), (error: unknown) => error instanceof FixtureError && error.message.startsWith(message));
    assert.equal((await db.select().from(customFields)).length, 0);
    assert.equal((await db.select().from(customFieldAnswers)).length, 0);
  }
});
