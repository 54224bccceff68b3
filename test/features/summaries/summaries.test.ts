import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { basicWorldWith, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from '../../me/accounts/client.js';

/**
 * Machine summaries (issue 34.9) against a small stand-in for an OpenAI-compatible API: what goes
 * out (public contributions and comments, no names), the kept summary while nothing changed,
 * publishing, refusals, and a failing model answered with the form, never a 500.
 */
interface Call {
  url: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}
const calls: Call[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: { choices: [{ message: { role: 'assistant', content: 'People want safer crossings.\n\nSome ask for more trees.' } }] } };
const readBody = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as Call['body'];
};
const standIn = createServer(async (request, response) => {
  calls.push({ url: request.url ?? '', authorization: request.headers.authorization, body: await readBody(request) });
  response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
});
await new Promise<void>((done) => standIn.listen(0, '127.0.0.1', done));
after(() => standIn.close());
const model = { url: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1`, model: 'local-test-model', apiKey: 'secret-key' };

const world = () =>
  basicWorldWith({
    ideas: [{ id: 1, module: 1, creator: 5, name: 'A safer crossing at the school', description: 'x' }],
    comments: [
      { id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Yes, and plant trees there' },
      { id: 2, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Hidden by a moderator', is_blocked: true },
    ],
  });
const dashboard = '/org/dashboard/projects/project/summary/';

test('an initiator has the project summarised: public contributions without names go out, the summary is kept while nothing changes, and published it is on the project', async () => {
  calls.length = 0;
  const { app, db } = await createTestApp({ summaries: model });
  await load(db, world());
  const initiator = new Browser(app);
  await initiator.login('initiator', 'initiator-password');
  const form = await initiator.get(dashboard);
  assert.equal(form.status, 200);
  assert.match(form.text, /local-test-model/);

  const made = await initiator.post(dashboard, { scope: '' });
  assert.equal(made.status, 302);
  assert.match(made.location ?? '', /done=summary_made/);
  assert.equal(calls.length, 1);
  const [call] = calls;
  assert.equal(call.url, '/v1/chat/completions');
  assert.equal(call.authorization, 'Bearer secret-key');
  assert.equal(call.body.model, 'local-test-model');
  const sent = call.body.messages.map((m) => m.content).join('\n');
  assert.match(sent, /A safer crossing at the school/);
  assert.match(sent, /Yes, and plant trees there/);
  const contributions = call.body.messages[1].content;
  for (const secret of ['Hidden by a moderator', 'user', 'other', '@example.org']) assert.ok(!contributions.includes(secret), `${secret} is not sent`);

  const shown = await initiator.get(dashboard);
  assert.match(shown.text, /Machine-made summary/);
  assert.match(shown.text, /People want safer crossings\./);
  assert.match(shown.text, /Not published\./);
  const visitor = new Browser(app);
  assert.doesNotMatch((await visitor.get('/org/projects/project/summary/')).text, /People want safer crossings/, 'not public before it is published');

  const again = await initiator.post(dashboard, { scope: '' });
  assert.match(again.location ?? '', /done=summary_kept/);
  assert.equal(calls.length, 1, 'nothing changed: the model is not asked again');

  const id = /summary\/(\d+)\/publish\//.exec(shown.text)?.[1];
  assert.ok(id);
  assert.equal((await initiator.post(`${dashboard}${id}/publish/`, {})).status, 302);
  const page = await visitor.get('/org/projects/project/summary/');
  assert.equal(page.status, 200);
  assert.match(page.text, /Machine-made summary/);
  assert.match(page.text, /Some ask for more trees\./);
  assert.match((await visitor.get('/org/projects/project/?tab=result')).text, /href="\/org\/projects\/project\/summary\/"/);

  await load(db, { comments: [{ id: 3, creator: 5, target: { type: 'idea', id: 1 }, comment: 'And a zebra crossing' }] });
  assert.match((await initiator.post(dashboard, { scope: '1' })).location ?? '', /done=summary_made/, 'the module alone is a scope of its own');
  assert.match((await initiator.post(dashboard, { scope: '' })).location ?? '', /done=summary_made/, 'a new comment: a new summary');
  assert.equal(calls.length, 3);
  assert.match(calls[2].body.messages[1].content, /And a zebra crossing/);
  assert.doesNotMatch((await visitor.get('/org/projects/project/summary/')).text, /People want/, 'a new summary is unpublished until published again');
});

test('summaries: refused for a private or draft project, a wrong scope, a failing model (the form again), users who do not manage the project; off without a model', async () => {
  calls.length = 0;
  const { app, db } = await createTestApp({ summaries: model });
  await load(db, world());
  const initiator = new Browser(app);
  await initiator.login('initiator', 'initiator-password');

  const wrong = await initiator.post(dashboard, { scope: '999' });
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, /Choose the project or one of its published modules\./);

  answer = { status: 500, body: { error: 'overloaded' } };
  const failed = await initiator.post(dashboard, { scope: '' });
  assert.equal(failed.status, 502);
  assert.match(failed.text, /The language model gave no summary \(HTTP 500\)/);
  answer = { status: 200, body: { choices: [] } };
  assert.match((await initiator.post(dashboard, { scope: '' })).text, /an answer without a summary/);
  answer = { status: 200, body: { choices: [{ message: { role: 'assistant', content: 'People want safer crossings.\n\nSome ask for more trees.' } }] } };

  for (const login of ['moderator', 'user']) {
    const other = new Browser(app);
    await other.login(login, `${login}-password`);
    assert.equal((await other.get(dashboard)).status, 403, login);
    assert.equal((await other.post(dashboard, { scope: '' })).status, 403, login);
  }
  assert.equal((await new Browser(app).get(dashboard)).status, 302, 'a visitor is sent to the login');

  await db.execute(`UPDATE projects SET access = 'PRIVATE'`);
  const refused = await initiator.post(dashboard, { scope: '' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /The contributions of a private project are not sent to a language model\./);
  await db.execute(`UPDATE projects SET access = 'PUBLIC', is_draft = true`);
  assert.match((await initiator.post(dashboard, { scope: '' })).text, /Only the contributions of a published project can be summarised\./);
  assert.equal(calls.length, 2, 'only the two failing calls reached the model');

  const { app: off, db: offDb } = await createTestApp();
  await load(offDb, world());
  const offInitiator = new Browser(off);
  await offInitiator.login('initiator', 'initiator-password');
  assert.match((await offInitiator.get(dashboard)).text, /Machine summaries are off on this platform/);
  assert.equal((await offInitiator.post(dashboard, { scope: '' })).status, 400);
});
