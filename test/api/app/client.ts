/**
 * Calls the API the way the adhocracy+ mobile app does (written from platform-facts and issue 12,
 * not from the app's code): `Accept` and `Content-Type: application/json` on every request, also
 * on a GET or DELETE without a body; `Authorization: Token <key>`; `Accept-Language: de`; multipart
 * bodies whose values are strings and whose lists repeat the key; paths as the screens build them.
 */
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { TestApp } from '../../helpers.js';

export type Json = Record<string, unknown>;
export type Answer = Awaited<ReturnType<TestApp['request']>>;

/** A multipart value: a string, or a file. */
export type Part = string | { filename: string; type: string; data: Buffer };

const BOUNDARY = '----AppFormBoundary7MA4YWxkTrZu0gW';

/** A multipart body as a phone's FormData sends it: one part per value, a list as repeated keys. */
export function formData(fields: [string, Part][]): { contentType: string; payload: Buffer } {
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    const head =
      typeof value === 'string'
        ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`
        : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n`;
    chunks.push(Buffer.from(head), typeof value === 'string' ? Buffer.from(value) : value.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.concat(chunks) };
}

export interface AppClient {
  /** The key the app keeps after login; null before. */
  token: string | null;
  get(path: string): Promise<Answer>;
  delete(path: string): Promise<Answer>;
  send(method: 'POST' | 'PUT' | 'PATCH', path: string, body: Json): Promise<Answer>;
  sendForm(method: 'POST' | 'PUT' | 'PATCH', path: string, fields: [string, Part][]): Promise<Answer>;
  /** Fetches an absolute URL from the JSON the way the app's image view would (path on this server). */
  fetchImage(url: string): Promise<{ status: number; type: string; body: Buffer }>;
}

export function appClient(t: TestApp, token: string | null = null): AppClient {
  const headers = (contentType = 'application/json') => ({
    accept: 'application/json',
    'content-type': contentType,
    'accept-language': 'de',
    ...(client.token ? { authorization: `Token ${client.token}` } : {}),
  });
  const client: AppClient = {
    token,
    get: (path) => t.request({ method: 'GET', url: path, headers: headers() }),
    delete: (path) => t.request({ method: 'DELETE', url: path, headers: headers() }),
    send: (method, path, body) => t.request({ method, url: path, headers: headers(), payload: JSON.stringify(body) }),
    sendForm: (method, path, fields) => {
      const form = formData(fields);
      return t.request({ method, url: path, headers: headers(form.contentType), payload: form.payload });
    },
    async fetchImage(url) {
      const { pathname } = new URL(url);
      const response = await t.app.inject({ method: 'GET', url: pathname });
      return { status: response.statusCode, type: String(response.headers['content-type'] ?? ''), body: response.rawPayload };
    },
  };
  return client;
}

/** Logs in like the app's login screen and keeps the key. */
export async function logIn(t: TestApp, username: string, password: string): Promise<AppClient> {
  const client = appClient(t);
  const response = await client.send('POST', '/api/login/', { username, password });
  assert.equal(response.status, 200, response.text);
  const token = (response.body as Json).token;
  assert.equal(typeof token, 'string');
  client.token = token as string;
  return client;
}

/** A photo as a phone sends it. */
export const photo = async (width: number, height: number, format: 'png' | 'jpeg' = 'jpeg') =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 60 } } })[format]().toBuffer();

// ---- What the screens read, with its type -------------------------------------------------

/** A field's type as a screen relies on it; an object is a nested shape; [shape] a list of such objects. */
export type FieldType = 'string' | 'integer' | 'boolean' | 'url' | 'png-url' | 'string|null' | 'integer|null' | 'url|null' | 'integer|false' | 'array' | Shape | [Shape];
export interface Shape {
  [field: string]: FieldType | { nullable: Shape } | { orFalse: [Shape] } | { orNull: [Shape] };
}

function checkValue(where: string, value: unknown, type: Shape[string], problems: string[]): void {
  const fail = (expected: string): void => {
    problems.push(`${where}: expected ${expected}, got ${JSON.stringify(value)?.slice(0, 80)}`);
  };
  if (typeof type === 'string') {
    const [main, alt] = type.split('|');
    if (alt === 'null' && value === null) return;
    if (alt === 'false' && value === false) return;
    if (main === 'string' && typeof value !== 'string') return fail(type);
    if (main === 'integer' && !Number.isInteger(value)) return fail(type);
    if (main === 'boolean' && typeof value !== 'boolean') return fail(type);
    if (main === 'array' && !Array.isArray(value)) return fail(type);
    if ((main === 'url' || main === 'png-url') && !(typeof value === 'string' && /^https?:\/\/[^/]+\//.test(value))) return fail(`an absolute ${type}`);
    if (main === 'png-url' && !/\.png$/.test(String(value))) return fail('an absolute URL of a PNG');
    return;
  }
  if (Array.isArray(type)) {
    if (!Array.isArray(value)) return fail('a list');
    value.forEach((item, i) => checkShape(`${where}[${i}]`, item, type[0], problems));
    return;
  }
  if ('nullable' in type && Object.keys(type).length === 1) {
    if (value !== null) checkShape(where, value, type.nullable as Shape, problems);
    return;
  }
  if ('orFalse' in type && Object.keys(type).length === 1) {
    if (value !== false) checkValue(where, value, type.orFalse as [Shape], problems);
    return;
  }
  if ('orNull' in type && Object.keys(type).length === 1) {
    if (value !== null) checkValue(where, value, type.orNull as [Shape], problems);
    return;
  }
  checkShape(where, value, type as Shape, problems);
}

function checkShape(where: string, value: unknown, shape: Shape, problems: string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${where}: expected an object, got ${JSON.stringify(value)?.slice(0, 80)}`);
    return;
  }
  for (const [field, type] of Object.entries(shape)) {
    if (!(field in value)) problems.push(`${where}.${field}: missing`);
    else checkValue(`${where}.${field}`, (value as Json)[field], type, problems);
  }
}

/** Asserts that every field a screen reads is there with its type (extra fields are fine). */
export function assertShape(value: unknown, shape: Shape, what = 'answer'): void {
  const problems: string[] = [];
  checkShape(what, value, shape, problems);
  assert.deepEqual(problems, [], `${what} as the app reads it`);
}

export function assertEach(values: unknown, shape: Shape, what: string): void {
  assert.ok(Array.isArray(values), `${what} is a list`);
  assert.ok(values.length > 0, `${what} is not empty`);
  values.forEach((value, i) => assertShape(value, shape, `${what}[${i}]`));
}

/** Asserts an image URL from the JSON answers a PNG the app's image view can draw. */
export async function assertDrawablePng(client: AppClient, url: unknown): Promise<void> {
  assert.equal(typeof url, 'string');
  const image = await client.fetchImage(url as string);
  assert.equal(image.status, 200, `${String(url)} answers`);
  assert.match(image.type, /^image\/png/, `${String(url)} is served as a PNG`);
  assert.deepEqual([...image.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${String(url)} is a PNG`);
}
