import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Db } from '../../../src/db/client.js';
import { outbox } from '../../../src/db/schema/index.js';

export interface PageResponse {
  status: number;
  text: string;
  location: string | undefined;
  headers: Record<string, unknown>;
}

/** A browser without JavaScript over app.inject(): keeps cookies, reads form tokens, posts forms. */
export interface UploadFile {
  name: string;
  filename: string;
  data: Buffer;
  type: string;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
  ) {}

  private remember(setCookie: unknown): void {
    const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
    for (const line of list as string[]) {
      const [pair, ...attrs] = line.split(';');
      const [name, ...rest] = pair.split('=');
      const value = rest.join('=');
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0\b/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(url: string): Promise<PageResponse> {
    const response = await this.app.inject({ method: 'GET', url, headers: { ...this.headers, cookie: this.cookieHeader() } });
    this.remember(response.headers['set-cookie']);
    return { status: response.statusCode, text: response.body, location: response.headers.location as string | undefined, headers: response.headers };
  }

  /** A GET whose body is kept as bytes (downloads). */
  async download(url: string): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
    const response = await this.app.inject({ method: 'GET', url, headers: { ...this.headers, cookie: this.cookieHeader() } });
    return { status: response.statusCode, body: response.rawPayload, headers: response.headers };
  }

  get csrf(): string {
    return this.cookies.get('csrftoken') ?? '';
  }

  /** Posts a form the way a browser does, with the page's CSRF token unless one is given; a list repeats its field (checkbox groups). */
  async post(url: string, fields: Record<string, string | string[]>, withCsrf = true): Promise<PageResponse> {
    if (withCsrf && !this.csrf) await this.get('/accounts/login/');
    // The sign-up and guest pages' widget solves the spam challenge in the browser; this client does it here.
    if (/^\/accounts\/(signup|guest)\/(\?|$)/.test(url) && !('altcha' in fields) && !('challenge_token' in fields)) fields = { ...fields, altcha: await solvedChallenge(this.app) };
    const entries = Object.entries({ ...(withCsrf ? { csrfmiddlewaretoken: this.csrf } : {}), ...fields }).flatMap(([name, value]) => [value].flat().map((one) => [name, one]));
    const body = new URLSearchParams(entries).toString();
    const response = await this.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { ...this.headers, cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    this.remember(response.headers['set-cookie']);
    return { status: response.statusCode, text: response.body, location: response.headers.location as string | undefined, headers: response.headers };
  }

  /** Posts JSON the way the site's scripts do: the browser's cookies and its CSRF token in `X-CSRFToken`. */
  async postJson(url: string, payload: unknown): Promise<PageResponse> {
    if (!this.csrf) await this.get('/accounts/login/');
    const response = await this.app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(payload),
      headers: { ...this.headers, cookie: this.cookieHeader(), 'content-type': 'application/json', 'x-csrftoken': this.csrf },
    });
    this.remember(response.headers['set-cookie']);
    return { status: response.statusCode, text: response.body, location: response.headers.location as string | undefined, headers: response.headers };
  }

  /** Posts a multipart form (for file uploads). */
  async postMultipart(url: string, fields: Record<string, string>, file?: UploadFile | UploadFile[]): Promise<PageResponse> {
    if (!this.csrf) await this.get('/accounts/login/');
    const boundary = '----allmendetest';
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries({ csrfmiddlewaretoken: this.csrf, ...fields })) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
    for (const one of file ? [file].flat() : []) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${one.name}"; filename="${one.filename}"\r\nContent-Type: ${one.type}\r\n\r\n`));
      parts.push(one.data, Buffer.from('\r\n'));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const response = await this.app.inject({
      method: 'POST',
      url,
      payload: Buffer.concat(parts),
      headers: { ...this.headers, cookie: this.cookieHeader(), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    this.remember(response.headers['set-cookie']);
    return { status: response.statusCode, text: response.body, location: response.headers.location as string | undefined, headers: response.headers };
  }

  /** Logs in through the login form. */
  async login(login: string, password: string): Promise<PageResponse> {
    await this.get('/accounts/login/');
    return this.post('/accounts/login/', { login, password });
  }
}

/** The newest e-mail to an address, and the first link in it with the given path prefix. */
export async function lastMail(db: Db, to: string) {
  const [mail] = await db.select().from(outbox).where(eq(outbox.recipient, to)).orderBy(desc(outbox.id)).limit(1);
  return mail ?? null;
}

export function linkIn(body: string, prefix: string): string {
  const match = new RegExp(`https?://[^\\s]+(${prefix.replace(/[/]/g, '\\/')}[^\\s]*)`).exec(body);
  if (!match) throw new Error(`no ${prefix} link in mail:\n${body}`);
  return match[1];
}

/** What the ALTCHA widget posts: a challenge from GET /challenge/, solved (test configs make it cheap). */
export async function solvedChallenge(app: FastifyInstance): Promise<string> {
  const challenge = JSON.parse((await app.inject({ method: 'GET', url: '/challenge/' })).body);
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
