import { request as httpRequest, type IncomingMessage } from 'node:http';

/** Test helpers for text/event-stream answers: a real HTTP connection, its events parsed as they come. */

export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** An open event stream: its answer and the events parsed so far, with a way to wait for the next one that matches. */
export class Stream {
  readonly events: SseEvent[] = [];
  private buffer = '';
  private waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  constructor(readonly response: IncomingMessage) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event: SseEvent = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) event.comment = line.slice(1).trim();
          else {
            const [key, ...rest] = line.split(':');
            (event as Record<string, string>)[key] = rest.join(':').trimStart();
          }
        }
        this.events.push(event);
        this.waiters = this.waiters.filter((w) => (w.match(event) ? (w.resolve(event), false) : true));
      }
    });
  }
  next(match: (e: SseEvent) => boolean): Promise<SseEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
  /** Resolves when the server ends the stream. */
  ended(): Promise<void> {
    if (this.response.complete || this.response.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      this.response.once('end', resolve);
      this.response.once('close', resolve);
    });
  }
  close() {
    this.response.destroy();
  }
}

export function openStream(port: number, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream', ...headers } }, (response) => resolve(new Stream(response)));
    req.on('error', reject);
    req.end();
  });
}

