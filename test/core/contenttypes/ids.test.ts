import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentKindOf, contentTypeId } from '../../../src/core/contenttypes/registry.js';
import { CONTENT_KINDS } from '../../../src/db/schema/index.js';
import { createTestApp } from '../../helpers.js';

/**
 * Content type ids are part of the API (`/api/contenttypes/{id}/objects/…`, an idea's
 * `content_type`) and of stored data: written out here once, never computed from the code that
 * declares them (the floor's kinds in core/contenttypes, each module type's in its folder).
 */
const FIXED = [
  [1, 'a4projects', 'project'],
  [2, 'a4modules', 'module'],
  [3, 'a4phases', 'phase'],
  [4, 'a4_candy_ideas', 'idea'],
  [5, 'a4polls', 'poll'],
  [6, 'a4_candy_documents', 'chapter'],
  [7, 'a4_candy_documents', 'paragraph'],
  [8, 'a4comments', 'comment'],
  [9, 'a4ratings', 'rating'],
  [10, 'a4reports', 'report'],
  [11, 'a4_candy_moderatorfeedback', 'moderatorcommentfeedback'],
  [12, 'a4_candy_mapideas', 'mapidea'],
  [13, 'a4_candy_budgeting', 'proposal'],
  [14, 'a4_candy_debate', 'subject'],
  [15, 'a4_candy_topicprio', 'topic'],
  [16, 'a4_candy_interactive_events', 'livequestion'],
  [17, 'a4_candy_offlineevents', 'offlineevent'],
  [18, 'allmende_results', 'result'],
  [19, 'a4polls', 'question'],
] as const;

test('the content type ids never change: GET /api/contenttypes/ lists exactly the fixed table', async () => {
  const t = await createTestApp();
  const listed = await t.request({ method: 'GET', url: '/api/contenttypes/' });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body, FIXED.map(([id, app_label, model]) => ({ id, app_label, model })));
});

/** The content kind of a model where their names differ (a poll's question is no question of a live event). */
const KIND_OF_MODEL: Record<string, string> = { question: 'pollquestion' };
const kindOf = (model: string) => KIND_OF_MODEL[model] ?? model;

test('every content kind has its fixed id, both ways', () => {
  assert.deepEqual([...CONTENT_KINDS].sort(), FIXED.map(([, , model]) => kindOf(model)).sort());
  for (const [id, , model] of FIXED) {
    assert.equal(contentTypeId(kindOf(model) as (typeof CONTENT_KINDS)[number]), id, model);
    assert.equal(contentKindOf(id), kindOf(model), String(id));
  }
  assert.equal(contentKindOf(20), undefined);
});
