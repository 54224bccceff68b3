import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dashboardApp, dashboardWorld, signedIn } from '../manage/world.js';

const HOSTILE = ['x;=1+1', 'a,=2+2', ' =3+3', 'line\n@SUM(A1)', 'tab\t+4', 'quote";-5+5', '=HYPERLINK("evil")', 'x; =cmd|calc'];

/** An RFC 4180 reader with the given separator (quotes respected). */
function readQuoted(text: string, separator: string): string[][] {
  const rows: string[][] = [[]];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    rows[rows.length - 1].push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) cell += c;
    else if (c === separator) endCell();
    else if (c === '\n' && text[i - 1] === '\r') {
      endCell();
      rows.push([]);
    } else if (c !== '\r') cell += c;
  }
  return rows;
}

/** A reader that splits on the separator and line breaks and ignores quotes. */
const readNaive = (text: string, separator: string) => text.split(/\r?\n|\r/).map((line) => line.split(separator).map((cell) => cell.replace(/^"+/, '')));

const formulas = (rows: string[][]) => rows.flat().filter((cell) => /^\s*[=+\-@]/.test(cell));

test('issue 21 finding 7: no CSV reader, splitting on "," or ";", quoted or not, gets a formula cell', async () => {
  const world = dashboardWorld();
  const { app } = await dashboardApp({
    ...world,
    ideas: HOSTILE.map((name, i) => ({ id: i + 1, module: 1, creator: 5, name, description: name, created: '2026-03-01T10:00:00Z' })),
  });
  const initiator = await signedIn(app, 'initiator');
  const menu = await initiator.get('/org/dashboard/projects/project/basic/');
  const slug = /href="\/org\/dashboard\/modules\/([^/]+)\/export\/"/.exec(menu.text)?.[1];
  const download = await initiator.download(`/org/dashboard/modules/${slug}/export/ideas.csv`);
  assert.equal(download.status, 200);
  const text = download.body.toString('utf8').slice(1);
  for (const separator of [',', ';']) {
    assert.deepEqual(formulas(readQuoted(text, separator)), [], `quoted reader on "${separator}"`);
    assert.deepEqual(formulas(readNaive(text, separator)), [], `naive reader on "${separator}"`);
  }
  // The comma reader gets every title back, marked but whole.
  const titles = readQuoted(text, ',').slice(1, -1).map((row) => row[2]);
  assert.equal(titles.length, HOSTILE.length);
  assert.ok(titles.includes("x;'=1+1"), titles.join(' | '));
});
