import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAnswers, checkFieldDefinitions, type CustomField, type FieldDefinition } from '../../../src/features/customfields/rules.js';

const district: CustomField = { id: 1, label: 'District', helpText: '', kind: 'choice', required: true, weight: 0, choices: [{ id: 10, label: 'North' }, { id: 11, label: 'South' }] };
const why: CustomField = { id: 2, label: 'Why?', helpText: '', kind: 'text', required: false, weight: 1, choices: [] };
const read = (values: Record<string, unknown>) => (name: string) => values[name];

test('answers: a required question needs one, a choice one of its own, a text its limit; errors are keyed by the field name', () => {
  const cases: [Record<string, unknown>, 'create' | 'put' | 'patch', Record<string, string[]>][] = [
    [{}, 'create', { custom_1: ['This field is required.'] }],
    [{ custom_1: '  ' }, 'put', { custom_1: ['This field is required.'] }],
    [{}, 'patch', {}],
    [{ custom_1: '12' }, 'create', { custom_1: ['Select a valid choice.'] }],
    [{ custom_1: 10, custom_2: 'x'.repeat(1001) }, 'create', { custom_2: ['Ensure this field has no more than 1000 characters.'] }],
    [{ custom_1: '10', custom_2: 'a\0b' }, 'create', { custom_2: ['Null characters are not allowed.'] }],
    [{ custom_1: ['10'] }, 'create', { custom_1: ['Not a valid string.'] }],
    [{ custom_1: '11', custom_2: ' because ' }, 'create', {}],
  ];
  for (const [values, mode, errors] of cases) assert.deepEqual(checkAnswers([district, why], read(values), mode).errors, errors, JSON.stringify(values));
  assert.deepEqual(checkAnswers([district, why], read({ custom_1: '11', custom_2: ' because ' }), 'create').answers, [
    { fieldId: 1, value: '', choiceId: 11 },
    { fieldId: 2, value: 'because', choiceId: null },
  ]);
  assert.deepEqual(checkAnswers([district, why], read({ custom_2: '' }), 'patch').answers, [{ fieldId: 2, value: '', choiceId: null }], 'PATCH: only what is sent; empty removes');
});

test('questions: a text within its limit, a known kind, two to twenty choices for a choice, a whole-number position', () => {
  const base: FieldDefinition = { id: null, label: 'Q', helpText: '', kind: 'text', required: false, weight: '', choices: '', remove: false };
  const errorsOf = (d: Partial<FieldDefinition>) => checkFieldDefinitions([{ prefix: 'new-', definition: { ...base, ...d } }]).errors;
  assert.deepEqual(errorsOf({}), {});
  assert.deepEqual(Object.keys(errorsOf({ label: ' ' })), ['new-label']);
  assert.deepEqual(Object.keys(errorsOf({ label: 'x'.repeat(201) })), ['new-label']);
  assert.deepEqual(Object.keys(errorsOf({ kind: 'date' })), ['new-kind']);
  assert.deepEqual(Object.keys(errorsOf({ kind: 'choice', choices: 'One\n\nOne' })), ['new-choices']);
  assert.deepEqual(Object.keys(errorsOf({ kind: 'choice', choices: Array.from({ length: 21 }, (_, i) => `c${i}`).join('\n') })), ['new-choices']);
  assert.deepEqual(Object.keys(errorsOf({ weight: '1.5' })), ['new-weight']);
  assert.deepEqual(errorsOf({ label: '', remove: true }), {}, 'a removed question is not checked');
  const many = Array.from({ length: 21 }, (_, i) => ({ prefix: `field-${i}-`, definition: { ...base, id: i } }));
  assert.deepEqual(Object.keys(checkFieldDefinitions(many).errors), ['non_field_errors']);
  assert.deepEqual(checkFieldDefinitions([{ prefix: 'new-', definition: { ...base, kind: 'choice', choices: ' North \r\nSouth\n' } }]).fields[0].choices, ['North', 'South']);
});
