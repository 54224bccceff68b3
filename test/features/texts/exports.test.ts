import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { signedIn } from '../../manage/world.js';
import { textsWorld } from './world.js';

const csv = (body: Buffer) => body.toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);

test('exports: the text review\'s comments, the debate\'s comments with their categories, the prioritisation\'s topics and comments', async () => {
  const t = await createTestApp();
  await load(t.db, {
    ...textsWorld(),
    comments: [
      { id: 1, creator: 4, target: { type: 'paragraph', id: 2 }, comment: 'On the seat' },
      { id: 2, creator: 3, target: { type: 'comment', id: 1 }, comment: 'A reply' },
      { id: 3, creator: 4, target: { type: 'subject', id: 1 }, comment: 'Sundays' },
      { id: 4, creator: 4, target: { type: 'topic', id: 2 }, comment: 'Yes' },
    ],
    ratings: [{ creator: 4, target: { type: 'topic', id: 2 }, value: 1 }],
  });
  await t.db.execute(`update comments set comment_categories = '[sug,que]' where id = 3`);
  const initiator = await signedIn(t.app, 'initiator');
  const text = csv((await initiator.download('/org/dashboard/modules/text/export/comments.csv')).body);
  assert.match(text[0], /^ID,Comment,Created,Link,Creator,Positive ratings,Negative ratings,Commented on,Reply to Comment,Blocked$/);
  assert.equal(text.length, 3);
  assert.match(text[1], /^1,On the seat,.*\/org\/text\/paragraphs\/2\/\?comment=1,member,0,0,§ 2 Seat,,no$/);
  assert.match(text[2], /^2,A reply,.*\/org\/text\/paragraphs\/2\/\?comment=2,moderator,0,0,§ 2 Seat,1,no$/);
  const debate = csv((await initiator.download('/org/dashboard/modules/debate/export/comments.csv')).body);
  assert.match(debate[0], /,Categories,Blocked$/);
  assert.match(debate[1], /Opening hours,,"sug,que",no$/);
  const subjects = csv((await initiator.download('/org/dashboard/modules/debate/export/subjects.csv')).body);
  assert.equal(subjects[0], 'Reference No.,Link,Title,Description,Creator,Created,Comment count');
  assert.match(subjects[1], /^\d{4}-00001,.*,Opening hours,When should the library open\?,initiator,.*,1$/);
  const topics = csv((await initiator.download('/org/dashboard/modules/prio/export/topics.csv')).body);
  assert.match(topics[0], /^Reference No\.,Link,Title,Description,Category,Labels,Creator,Created,Positive ratings,Negative ratings,Comment count$/);
  assert.match(topics[1], /^\d{4}-00001,.*,Zebra crossings,More crossings,Streets,,initiator,/);
  assert.match(topics[2], /Apples for schools,Fruit,Schools,Cheap,initiator,.*,1,0,1$/);
  assert.equal((await (await signedIn(t.app, 'other')).download('/org/dashboard/modules/prio/export/topics.csv')).status, 403);
});
