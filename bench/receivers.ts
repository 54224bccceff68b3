import { type ChildProcess, fork } from 'node:child_process';
import { Agent, request } from 'node:http';

/**
 * The live benches' receiver processes (bench/live.ts, bench/busy.ts): `script` run again with
 * `--receive <port> <share>`, each holding its share of `clients` streams; resolves once every
 * receiver said its streams are open.
 */
export async function startReceivers(script: string, port: number, clients: number, receivers: number): Promise<ChildProcess[]> {
  const children = Array.from({ length: receivers }, (_, i) => {
    const share = Math.floor(clients / receivers) + (i < clients % receivers ? 1 : 0);
    return fork(script, ['--receive', String(port), String(share)], { execArgv: ['--import', 'tsx'] });
  });
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          child.once('message', () => resolve());
          child.once('exit', (code) => reject(new Error(`a receiver exited with ${code}`)));
        }),
    ),
  );
  return children;
}

/** Sends a receiver a message and waits for its answer (the first message that has the field `has`). */
export const ask = <T>(child: ChildProcess, message: object, has: keyof T): Promise<T> =>
  new Promise((resolve) => {
    const listen = (answer: T) => {
      if (answer && typeof answer === 'object' && has in answer) {
        child.off('message', listen);
        resolve(answer);
      }
    };
    child.on('message', listen);
    child.send(message);
  });

/**
 * A receiver's side: opens `count` live streams at `path` (a hundred at a time) and hands each
 * chunk of whole events to `onEvents` with the time it arrived (ms since the epoch) and the number
 * of its stream; `headersOf` gives a stream's own request headers (a browser's cookie).
 */
export async function openStreams(
  port: number,
  path: string,
  count: number,
  onEvents: (events: string, at: number, stream: number) => void,
  headersOf: (stream: number) => Record<string, string> = () => ({}),
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const openStream = (stream: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent, headers: { ...headersOf(stream), accept: 'text/event-stream' } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        response.setEncoding('utf8');
        let rest = '';
        response.on('data', (chunk: string) => {
          const at = performance.timeOrigin + performance.now();
          rest += chunk;
          const end = rest.lastIndexOf('\n\n');
          if (end < 0) return;
          onEvents(rest.slice(0, end), at, stream);
          rest = rest.slice(end + 2);
        });
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
  for (let i = 0; i < count; i += 100) await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => openStream(i + j)));
}
