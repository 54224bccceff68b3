import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { createTestApp } from '../helpers.js';

/** A listening server with very short timeouts and a cap of two connections per address. */
async function server() {
  const t = await createTestApp({ connections: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, connectionsPerIp: 2 } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  assert.ok(address && typeof address === 'object');
  return address.port;
}

/** Opens a socket and collects what the server says until it closes the connection. */
function open(port: number): { socket: Socket; ready: Promise<void>; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  return {
    socket,
    ready: new Promise((resolve) => socket.once('connect', () => resolve())),
    closed: new Promise((resolve) => socket.once('close', () => resolve(received))),
  };
}

test('F8: a client trickling its headers (slowloris) is answered 408 and disconnected by the header timeout', async () => {
  const port = await server();
  const slow = open(port);
  await slow.ready;
  const header = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ' + 'a'.repeat(10_000);
  let sent = 0;
  // One byte whenever the previous one left the buffer: the client keeps talking, never finishes.
  const trickle = () => {
    if (slow.socket.destroyed || sent >= header.length) return;
    slow.socket.write(header[sent++], () => setImmediate(trickle));
  };
  trickle();
  // The headers never end (no blank line), however fast the bytes go: only the timeout can end this.
  const answer = await slow.closed;
  assert.match(answer, /^HTTP\/1\.1 408/);
  assert.match(answer, /\r\n\r\n\{"detail":"The request was not sent in time\."\}$/, 'the API error shape');
});

test('F8: a silent connection and an idle keep-alive connection are closed by the server', async () => {
  const port = await server();
  const silent = open(port);
  await silent.ready;
  assert.match(await silent.closed, /^(HTTP\/1\.1 408 [^]*)?$/, 'nothing sent: closed (at most a 408)');
  const idle = open(port);
  await idle.ready;
  idle.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  assert.match(await idle.closed, /^HTTP\/1\.1 200/, 'answered, then closed after the keep-alive timeout');
});

test('F8: connections over the per-address cap are refused; a freed place can be used again', async () => {
  const port = await server();
  const first = open(port);
  const second = open(port);
  await Promise.all([first.ready, second.ready]);
  const third = open(port);
  await third.ready;
  third.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  assert.equal(await third.closed, '', 'the third connection is closed unanswered');
  first.socket.destroy();
  await first.closed;
  const again = open(port);
  await again.ready;
  again.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  assert.match(await again.closed, /^HTTP\/1\.1 200/);
  second.socket.destroy();
});
