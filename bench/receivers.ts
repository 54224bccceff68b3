import { type ChildProcess, fork } from 'node:child_process';

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
