import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { resultLinks, results } from '../../../src/features/results/schema.js';
import { Browser } from '../../me/accounts/client.js';
import { signedIn } from '../../manage/world.js';
import { tokenHeader } from '../../fixtures.js';
import { BRIDGE, PARK, resultsApp } from './world.js';

const MANAGE = '/org/results/project/project/';
const IMPORT = `${MANAGE}import/`;
const csvFile = (text: string) => ({ name: 'file', filename: 'results.csv', type: 'text/csv', data: Buffer.from(text) });

test('the results export as CSV and xlsx with every column; the CSV comes back through the import unchanged in number', async () => {
  const t = await resultsApp();
  const initiator = await signedIn(t.app, 'initiator');
  await initiator.post(`${MANAGE}winners/`, { module: '32' });
  const csv = await initiator.download(`${MANAGE}export.csv`);
  assert.equal(csv.status, 200);
  const text = csv.body.toString('utf8');
  assert.match(text, /ID,Link,Title,Description,Category,District,Latitude,Longitude,Start,End,Budget planned,Budget spent,Status,Progress,Progress shown,Parent ID,Contributions/);
  assert.match(text, new RegExp(`Park 32,.*,50000,,planned,,0,,proposal:${PARK}`), 'no progress of its own, 0 from its status');
  const xlsx = await initiator.download(`${MANAGE}export.xlsx`);
  assert.equal(xlsx.status, 200);
  assert.equal(xlsx.body.subarray(0, 2).toString('latin1'), 'PK');
  assert.equal((await (await signedIn(t.app, 'user')).download(`${MANAGE}export.csv`)).status, 403);
  const fromXlsx = await initiator.postMultipart(IMPORT, {}, { name: 'file', filename: 'results.xlsx', type: 'application/octet-stream', data: xlsx.body });
  assert.equal(fromXlsx.status, 200);
  assert.match(fromXlsx.text, /<td>Park 32<\/td><td>planned<\/td><td>ready<\/td>/);

  // The exported file, imported again: the rows with their IDs change the same results.
  const preview = await initiator.postMultipart(IMPORT, {}, csvFile(text));
  assert.equal(preview.status, 200);
  assert.match(preview.text, /Import 2 results/);
  const rows = /name="rows" value="([^"]*)"/.exec(preview.text)?.[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? '';
  assert.equal((await initiator.post(IMPORT, { rows })).location, `${MANAGE}?done=imported`);
  assert.equal((await t.db.select().from(results)).length, 2);
});

test('the import shows every row with its errors before anything is written; a valid file (German headings, semicolons or commas) adds linked results', async () => {
  const t = await resultsApp();
  const initiator = await signedIn(t.app, 'initiator');
  const bad = await initiator.postMultipart(IMPORT, {}, csvFile(`Title;Status;Progress;Contributions;Latitude\nPark renovation;planned;;proposal:${PARK};\n;unknown;150;proposal:999999;91\n`));
  assert.equal(bad.status, 400);
  assert.match(bad.text, /<td>3<\/td>/);
  for (const message of ['Status: no status of the organisation is called &quot;unknown&quot;.', 'Title: This field is required.', 'Progress: Enter a number from 0 to 100.', 'Contributions: &quot;proposal:999999&quot; is no contribution of the project.', 'Latitude: Enter a latitude from -90 to 90.'])
    assert.ok(bad.text.includes(message), message);
  assert.doesNotMatch(bad.text, /name="rows"/, 'no way to write a file with errors');
  assert.equal((await t.db.select().from(results)).length, 0);
  // Rows sent back by hand are checked again.
  const forged = await initiator.post(IMPORT, { rows: JSON.stringify([{ Title: '', Status: 'planned' }]) });
  assert.equal(forged.status, 400);
  assert.equal((await t.db.select().from(results)).length, 0);
  assert.equal((await initiator.postMultipart(IMPORT, {}, csvFile('Name,Budget\nx,1\n'))).status, 400);

  const good = await initiator.postMultipart(IMPORT, {}, csvFile(`Titel,Status,Geplantes Budget,Beiträge,Stadtteil\n"Park, renovated",in progress,50000,proposal:${PARK},North\nBridge,done,,proposal:${BRIDGE},South\n`));
  assert.equal(good.status, 200);
  assert.match(good.text, /Import 2 results/);
  const one = await initiator.postMultipart(IMPORT, {}, csvFile(`Title,Status\nBench,planned\n`));
  assert.match(one.text, /<button type="submit">Import 1 result<\/button>/, 'one row: the singular (the plural rules)');
  assert.equal((await t.db.select().from(results)).length, 0, 'the preview writes nothing');
  const rows = /name="rows" value="([^"]*)"/.exec(good.text)?.[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? '';
  assert.equal((await initiator.post(IMPORT, { rows })).status, 302);
  const made = await t.db.select().from(results).orderBy(asc(results.id));
  assert.deepEqual(made.map((r) => [r.title, r.budgetPlanned, r.district, r.progress]), [
    ['Park, renovated', 50_000, 'North', null],
    ['Bridge', null, 'South', null],
  ]);
  const api = (await t.request({ method: 'GET', url: '/api/projects/1/results/' })).body as { title: string; progress: number }[];
  assert.deepEqual(api.map((r) => [r.title, r.progress]), [['Park, renovated', 40], ['Bridge', 100]], "an empty progress: the status's");
  assert.equal((await t.db.select().from(resultLinks).where(eq(resultLinks.objectPk, PARK))).length, 1);
});

test('the app API reads a project’s results: whoever sees the project, nobody else', async () => {
  const t = await resultsApp();
  const initiator = await signedIn(t.app, 'initiator');
  await initiator.post(`${MANAGE}winners/`, { module: '32' });
  const list = await t.request({ method: 'GET', url: '/api/projects/1/results/' });
  assert.equal(list.status, 200);
  const body = list.body as { title: string; budget_planned: number; progress: number; status: { name: string }; contributions: { content_type: number; object_pk: number }[] }[];
  assert.deepEqual(body.map((r) => [r.title, r.budget_planned, r.progress, r.status.name]), [
    ['Park 32', 50_000, 0, 'planned'],
    ['Bridge 32', 30_000, 0, 'planned'],
  ]);
  assert.deepEqual(body[0].contributions, [{ content_type: 13, object_pk: PARK }]);
  assert.equal((await t.request({ method: 'GET', url: '/api/projects/5/results/' })).status, 401);
  assert.equal((await t.request({ method: 'GET', url: '/api/projects/5/results/', headers: await tokenHeader(t.db, 5) })).status, 403);
  assert.equal((await t.request({ method: 'GET', url: '/api/projects/5/results/', headers: await tokenHeader(t.db, 4) })).status, 200);
  assert.equal((await t.request({ method: 'GET', url: '/api/projects/999/results/' })).status, 404);
  assert.equal((await new Browser(t.app).get('/api/schema/')).text.includes('/api/projects/{id}/results/'), true, 'documented in the OpenAPI schema');
});

test('the import refuses parents that would make a result part of itself, in one row or across rows; a deletion ends even if parents ever formed a cycle', async () => {
  const t = await resultsApp();
  const initiator = await signedIn(t.app, 'initiator');
  await initiator.post(`${MANAGE}winners/`, { module: '32' });
  const [park, bridge] = await t.db.select().from(results).orderBy(asc(results.id));
  await t.db.update(results).set({ parentId: park.id }).where(eq(results.id, bridge.id));
  const message = 'Parent ID: A result cannot be part of itself or of one of its parts.';
  // The park under its own part, the bridge.
  const own = await initiator.postMultipart(IMPORT, {}, csvFile(`ID,Title,Parent ID\n${park.id},Park,${bridge.id}\n`));
  assert.equal(own.status, 400);
  assert.ok(own.text.includes(message), message);
  assert.doesNotMatch(own.text, /name="rows"/);
  // Across rows: each under the other; and the same rows sent back by hand.
  const crossing = [
    { ID: String(park.id), Title: 'Park', 'Parent ID': String(bridge.id) },
    { ID: String(bridge.id), Title: 'Bridge', 'Parent ID': '' },
  ];
  assert.equal((await initiator.post(IMPORT, { rows: JSON.stringify(crossing) })).status, 302, 'the bridge leaves the park: no cycle, written');
  assert.equal((await t.db.select().from(results).where(eq(results.id, park.id)))[0].parentId, bridge.id);
  const cycle = [
    { ID: String(park.id), Title: 'Park', 'Parent ID': String(bridge.id) },
    { ID: String(bridge.id), Title: 'Bridge', 'Parent ID': String(park.id) },
  ];
  const refused = await initiator.post(IMPORT, { rows: JSON.stringify(cycle) });
  assert.equal(refused.status, 400);
  assert.equal(refused.text.split(message).length - 1, 2, 'both rows say why');
  assert.equal((await t.db.select().from(results).where(eq(results.id, bridge.id)))[0].parentId, null, 'nothing written');

  // Should a cycle ever be stored (two editors at once), deleting one of them still ends.
  await t.db.update(results).set({ parentId: park.id }).where(eq(results.id, bridge.id));
  assert.equal((await initiator.post(`/org/results/${park.id}/delete/`, {})).status, 302);
  assert.equal((await t.db.select().from(results)).length, 0);
});
