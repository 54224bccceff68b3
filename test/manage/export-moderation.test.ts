import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

const CSV = '/org/dashboard/modules/module-1/export/comments.csv';

const csvRows = (body: Buffer) => body.toString('utf8').slice(1).trimEnd().split('\r\n');

test('the comment export marks blocked comments in a "Blocked" column and withholds their text, as the discussion does; in English and German', async () => {
  const world = dashboardWorld();
  const { app } = await dashboardApp({
    ...world,
    ideas: [{ id: 1, module: 1, creator: 4, name: 'Trees', description: 'x', category: 1, created: '2026-03-01T10:00:00Z' }],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'Fair point', created: '2026-03-02T10:00:00Z' },
      { id: 2, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Insulting words about a neighbour', is_blocked: true, created: '2026-03-03T10:00:00Z' },
      { id: 3, creator: 5, target: { type: 'comment', id: 2 }, comment: 'Please stop', created: '2026-03-04T10:00:00Z' },
    ],
  });
  const moderator = await signedIn(app, 'moderator');
  const download = await moderator.download(CSV);
  assert.equal(download.status, 200);
  const rows = csvRows(download.body);
  assert.match(rows[0], /,Reply to Comment,Blocked$/);
  assert.match(rows[1], /^1,Fair point,.*,no$/);
  assert.match(rows[2], /^2,,.*,other,0,0,2026-00001,,yes$/, 'the blocked text is withheld');
  assert.match(rows[3], /^3,Please stop,.*,2026-00001,2,no$/);
  assert.doesNotMatch(download.body.toString('utf8'), /Insulting/);

  const german = csvRows((await (await signedIn(app, 'coinit')).download(CSV)).body);
  assert.match(german[0], /,Blockiert$/);
  assert.match(german[2], /,ja$/);
});
