/**
 * Request generators of the attack suite: valid requests built from the OpenAPI document's
 * schemas (with hints that point them at objects that exist), and hostile ones that break one
 * thing at a time — a path, a query, a header, a body, its media type or its encoding.
 */
import type { Caller, Known } from './world.js';
import type { Random } from './random.js';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** One operation of the OpenAPI document: a method on a path template. */
export interface Operation {
  method: string;
  path: string;
  pathParams: OpenApiParameter[];
  queryParams: OpenApiParameter[];
  mediaTypes: string[];
  bodySchema: JsonSchema | null;
  /** A page route (pages.ts): sent with the caller's browser session and the form token. */
  page?: boolean;
}

export interface FuzzRequest {
  operation: Operation;
  caller: Caller['name'];
  /** valid: built to be accepted when the caller may; hostile: one part broken on purpose. */
  mode: 'valid' | 'hostile';
  /** Which generator made it (shown with a failure). */
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** Every operation of the document (the user/session service's included). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      // The live channel's event streams never end by themselves (their tests hold real connections).
      if (method === 'get' && path.endsWith('/live/')) continue;
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const mediaTypes = Object.keys(content);
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        mediaTypes,
        bodySchema: mediaTypes.length ? content[mediaTypes[0]].schema : null,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Values

const WORDS = ['Park', 'Radweg', 'bench', 'Straße', 'über', 'idea', 'Bürger', 'tree', '🚲', '公园', 'مرحبا', 'ümlaut'];
const MARKUP = [
  '<b>bold</b> text',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '&lt;img src=x&gt;',
  '<p>para</p><ul><li>one</li></ul>',
  "' OR 1=1 --",
  '"; DROP TABLE ideas; --',
  '{{7*7}} ${7*7}',
  '   ',
];

export function text(rng: Random, maxLength = 200, minLength = 0): string {
  let out = '';
  const target = rng.int(Math.max(minLength, 1), Math.min(maxLength, rng.pick([8, 30, 120, 400])));
  while (out.length < target) out += (out ? ' ' : '') + (rng.chance(0.15) ? rng.pick(MARKUP) : rng.pick(WORDS));
  out = out.slice(0, maxLength);
  return out.length < minLength ? out.padEnd(minLength, 'x') : out;
}

/** Values that break a string field: control characters, broken Unicode, lengths around the limits. */
export function hostileString(rng: Random, maxLength = 1000): string {
  switch (rng.int(0, 9)) {
    case 0:
      return `a\u0000b`;
    case 1:
      return '\u0000';
    case 2:
      return 'lone \ud800 surrogate \udfff';
    case 3:
      return 'x'.repeat(maxLength + 1);
    case 4:
      return 'y'.repeat(rng.pick([100_000, 1_000_000]));
    case 5:
      return '\u202e\u200b\ufeff\u0007\u001b[31m';
    case 6:
      return '%00%ff../../etc/passwd';
    case 7:
      return ' '.repeat(rng.int(1, 5));
    case 8:
      return '';
    default:
      return rng.pick(MARKUP);
  }
}

const HOSTILE_NUMBERS: unknown[] = [
  0, -1, 2147483648, -2147483649, 9007199254740992, 1e308, 1.5, -0, '1', '0x10', '1e3', ' 1', '١', 'NaN', 'Infinity', '', null, true,
];

/** A value of the wrong type for a field of this schema. */
function wrongType(rng: Random, schema: JsonSchema): unknown {
  const pool: unknown[] = [null, true, 0, 1.5, -1, 'text', [], ['x'], {}, { $gt: '' }, { __proto__: { admin: true } }, 1e20];
  if (typeOf(schema) === 'integer' || typeOf(schema) === 'number') pool.push(...HOSTILE_NUMBERS);
  if (typeOf(schema) === 'string') pool.push(hostileString(rng, schema.maxLength));
  return rng.pick(pool);
}

const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/** Hints: fields whose valid values must name things that exist, or known credentials. */
function hintedValue(rng: Random, name: string, operation: Operation, known: Known): unknown {
  const fromLogins = rng.chance(0.2) ? rng.pick(known.logins) : null;
  switch (name) {
    case 'category':
      return rng.pick<unknown>([...known.categoryIds, null, '', String(known.categoryIds[0])]);
    case 'labels':
      return rng.subset(known.labelIds);
    case 'value':
      return rng.int(-1, 1);
    case 'content_type':
      return rng.pick(known.contentTypeIds);
    case 'object_pk':
      return rng.pick([...known.ideaIds, ...known.commentIds]);
    case 'username':
      if (operation.path === '/api/account/') return rng.chance(0.5) ? 'user' : `renamed_${rng.int(1, 1e6)}`;
      return fromLogins?.username ?? text(rng, 30, 1);
    case 'password':
      return fromLogins?.password ?? text(rng, 30, 1);
    case 'refresh':
      return rng.pick([known.refreshToken, known.accessToken, 'not.a.jwt']);
    case 'token':
      return rng.pick([known.accessToken, known.refreshToken, 'eyJhbGciOiJub25lIn0.eyJ1c2VyX2lkIjoxfQ.']);
    case 'udName':
      return `person${rng.int(1, 1e6)}`;
    case 'udEmail':
      return `person${rng.int(1, 1e6)}@example.org`;
    case 'udPassword':
      return 'a-password';
    case 'image':
      return undefined; // a file: added by the multipart encoder
    default:
      return NO_HINT;
  }
}

const NO_HINT = Symbol('no hint');

/** A value that satisfies the schema (as far as a schema can say), preferring known objects. */
export function validValue(rng: Random, schema: JsonSchema, known: Known, operation: Operation, name = ''): unknown {
  const hinted = name ? hintedValue(rng, name, operation, known) : NO_HINT;
  if (hinted !== NO_HINT) return hinted;
  if (schema.enum) return rng.pick(schema.enum);
  if (schema.anyOf) return validValue(rng, rng.pick(schema.anyOf), known, operation, '');
  switch (typeOf(schema)) {
    case 'object': {
      const body: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (!schema.required?.includes(key) && rng.chance(0.5)) continue;
        const value = validValue(rng, property, known, operation, key);
        if (value !== undefined) body[key] = value;
      }
      return body;
    }
    case 'array':
      return Array.from({ length: rng.int(0, 3) }, () => validValue(rng, schema.items ?? {}, known, operation, ''));
    case 'integer':
    case 'number':
      return rng.int(Math.max(schema.minimum ?? -5, -5), Math.min(schema.maximum ?? 5, 5));
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'string':
      return text(rng, schema.maxLength ?? 400, schema.minLength ?? 0);
    default:
      return text(rng, 40);
  }
}

/** Path parameters named after what they point at. */
function validParam(rng: Random, name: string, path: string, known: Known): string {
  const id = (pool: readonly (number | string)[]) => String(rng.chance(0.05) ? 987654 : rng.pick(pool));
  switch (name) {
    case 'moduleId':
      return id(known.moduleIds);
    case 'org':
      return rng.chance(0.05) ? 'no-such-org' : rng.pick(['org', 'org', 'other-org']);
    case 'module':
      return rng.chance(0.05) ? 'no-such-module' : rng.pick(known.moduleSlugs);
    case 'invite':
      return rng.chance(0.1) ? '00000000-0000-0000-0000-000000000000' : rng.pick(known.inviteTokens);
    case 'key':
      return rng.pick(['imprint', 'privacy', 'terms', 'netiquette', 'nope']);
    case 'ct':
      return id(known.contentTypeIds);
    case 'slug':
    case 'project_slug':
      return rng.chance(0.05) ? 'no-such-project' : rng.pick(known.projectSlugs);
    case 'project_pk':
      return id(known.projectIds);
    case 'comment_pk':
      return id(known.commentIds);
    case 'userid':
      return id(known.usersvcUserIds);
    case 'token':
      return rng.chance(0.1) ? 'no-such-session' : rng.pick(known.usersvcSessions);
    case 'sid':
      return rng.pick([...known.usersvcServiceIds, 'no-such-service']);
    case '*':
      return rng.pick(['', 'a', 'a/b/c', 'deep/path/?q=1', 'x.json']);
    case 'id':
      return id(path.includes('/ratings/') ? known.ratingIds : known.commentIds);
    case 'pk':
      if (path.startsWith('/api/app-modules/')) return id(known.moduleIds);
      if (path.includes('/ideas/')) return id(known.ideaIds);
      if (path.includes('/moderatorfeedback/')) return id(known.feedbackIds);
      if (path.includes('/moderation/')) return id(known.commentIds);
      return id([...known.ideaIds, ...known.commentIds]);
    default:
      return String(rng.int(1, 5));
  }
}

const QUERY_HINTS: Record<string, string[]> = {
  page: ['1', '2', '3'],
  enabled: ['true', 'false'],
  is_reviewed: ['true', 'false'],
  has_reports: ['true', 'false'],
  ordering: ['new', '-created', 'created', 'most_popular'],
  num_of_comments: ['5', '10'],
};

// ---------------------------------------------------------------------------------------------
// Hostile parts

/** Values for a path parameter: traversal, encodings, numbers out of range, lengths past the router's limit. */
const HOSTILE_PARAMS = [
  '..', '%2e%2e', '%2E%2E%2F%2E%2E', '.%2e', '%2f', '%2F..%2F', '..%5c..', '%5c', '%00', '1%00', '%ff', '%c0%af', '%e2%80%ae',
  '0', '-1', '2147483648', '99999999999999999999', '1e3', '0x10', '1.5', '%201', '1%20', '+1', '%D9%A1', 'NaN', 'Infinity',
  "1'--", '1;SELECT%201', '%24%7B7*7%7D', '__proto__', 'constructor', '%', '%%', '%u0041', 'a'.repeat(600), '9'.repeat(400),
  '~', '%7e', ';jsessionid=1', '%3Fx%3D1', '%23frag',
];

/** Whole-URL tricks around a well-formed URL. */
function hostileUrl(rng: Random, url: string): string {
  const [path, query = ''] = url.split('?');
  const q = query ? `?${query}` : '';
  switch (rng.int(0, 11)) {
    case 0:
      return `${path.replace(/^\/api\//, '/api/../api/')}${q}`;
    case 1:
      return `${path.replace(/^\/api\//, '/api/%2e%2e/api/')}${q}`;
    case 2:
      return `${path.replace(/\//g, '//')}${q}`;
    case 3:
      return `${path.replace(/\/$/, '')}${q}`;
    case 4:
      return `${path}%00${q}`;
    case 5:
      return `${path.toUpperCase()}${q}`;
    case 6:
      return `${path}./${q}`;
    case 7:
      return `${path}..%2f..%2f..%2fetc%2fpasswd${q}`;
    case 8:
      return `${path.replace(/\/([^/]+)\/$/, '/$1%2F..%2F/')}${q}`;
    case 9:
      return `${path};param${q}`;
    case 10:
      return `${path}?${'a=1&'.repeat(rng.pick([10, 2000]))}`;
    default:
      return `${path}#fragment${q}`;
  }
}

const HOSTILE_QUERY_VALUES = ['99999999999999999999', '-1', '0', 'abc', '', '1.5', '%00', '%ff', 'true%00', 'x'.repeat(5000), '1e400', '[]', '{}'];

function hostileQuery(rng: Random, operation: Operation): string {
  const names = [...operation.queryParams.map((p) => p.name), 'page', 'format', '__proto__', 'constructor[prototype][x]', 'page[]', 'a[b][c]'];
  const parts: string[] = [];
  for (let i = rng.int(1, 4); i > 0; i--) parts.push(`${encodeURIComponent(rng.pick(names))}=${rng.pick(HOSTILE_QUERY_VALUES)}`);
  return parts.join('&');
}

/** Authorization, cookies, language and the user/session service's headers, broken. */
function hostileHeaders(rng: Random, known: Known): Record<string, string> {
  const access = known.accessToken;
  const [header, payload] = access.split('.');
  const choices: Record<string, string>[] = [
    { authorization: 'Basic dXNlcjp1c2VyLXBhc3N3b3Jk' },
    { authorization: 'Digest username="user"' },
    { authorization: 'Bearer' },
    { authorization: 'Bearer garbage' },
    { authorization: 'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJ1c2VyX2lkIjoxLCJ0b2tlbl90eXBlIjoiYWNjZXNzIn0.' },
    { authorization: `Bearer ${header}.${payload}.AAAA` },
    { authorization: `Bearer ${known.refreshToken}` },
    { authorization: 'Token' },
    { authorization: `Token ${'a'.repeat(40)}` },
    { authorization: `Token ${'a'.repeat(10_000)}` },
    { authorization: 'Token 1 2 3' },
    { authorization: 'tOkEn abc' },
    { authorization: 'bareword' },
    { authorization: '' },
    { cookie: 'sessionid=garbage; csrftoken=x' },
    { cookie: 'sessionid=%00%ff; csrftoken=%' },
    { cookie: `sessionid=${'s'.repeat(5000)}` },
    { cookie: 'a=1; '.repeat(500) },
    { 'accept-language': 'xx-ZZ;q=abc, *;q=-1, de;q=2' },
    { 'accept-language': 'de-'.repeat(2000) },
    { accept: 'text/html' },
    { accept: 'application/xml;q=0.9, */*;q=0' },
    { 'x-forwarded-for': '1.2.3.4, ::1, not-an-ip' },
    { 'x-csrftoken': 'x'.repeat(300) },
    { 'x-thentos-session': 'garbage' },
    { 'x-thentos-session': known.usersvcSessions[0], 'x-thentos-user': 'god' },
    { 'x-thentos-service': 'nope', 'x-thentos-password': 'nope' },
    { 'x-thentos-service': known.serviceKeys[0].id, 'x-thentos-password': 'wrong' },
    { 'x-thentos-user': 'alice', 'x-thentos-password': 'wrong' },
    { 'x-thentos-user': '', 'x-thentos-password': '' },
    { 'x-thentos-password': 'alone' },
    { 'x-http-method-override': 'DELETE' },
    { 'transfer-encoding': 'chunked' },
    { host: 'evil.example' },
    { 'content-encoding': 'gzip' },
  ];
  return rng.pick(choices);
}

const HOSTILE_MEDIA_TYPES = [
  'text/plain',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/mixed; boundary=x',
  'application/x-www-form-urlencoded; charset=latin1',
  'application/json, text/html',
  ';;;',
  'x'.repeat(3000),
  'image/png',
];

const deep = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

/** A whole JSON body that is not what any route takes. */
function hostileJsonText(rng: Random): string | Buffer {
  switch (rng.int(0, 16)) {
    case 0:
      return 'null';
    case 1:
      return '[]';
    case 2:
      return '"string"';
    case 3:
      return '12345678901234567890123456789';
    case 4:
      return deep(rng.pick([100, 10_000, 100_000]), '[', ']');
    case 5:
      return deep(rng.pick([100, 10_000, 50_000]), '{"a":', '}');
    case 6:
      return '{"comment": "unterminated';
    case 7:
      return '';
    case 8:
      return '\ufeff{"name": "bom"}';
    case 9:
      return '{"name": "x", /* comment */ "description": "y"}';
    case 10:
      return "{'name': 'single quotes'}";
    case 11:
      return '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}';
    case 12:
      return Buffer.concat([Buffer.from('{"comment": "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('", "name": "x"}')]);
    case 13:
      return Buffer.from([0x00, 0x00, 0x00, 0x7b]);
    case 14:
      return JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])));
    case 15:
      return '{"comment": "a", "comment": {"b": 1}, "value": 1, "value": "1"}';
    default:
      return `{"name": "${'x'.repeat(rng.pick([1_000_000, 7_000_000]))}"}`;
  }
}

/** The valid body with one field broken (wrong type, hostile string, dropped, or an extra one). */
function brokenBody(rng: Random, body: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const out = { ...body };
  const keys = Object.keys(schema.properties ?? {});
  const key = keys.length ? rng.pick(keys) : 'field';
  const property = schema.properties?.[key] ?? {};
  switch (rng.int(0, 4)) {
    case 0:
      out[key] = wrongType(rng, property);
      break;
    case 1:
      out[key] = typeOf(property) === 'string' ? hostileString(rng, property.maxLength) : rng.pick(HOSTILE_NUMBERS);
      break;
    case 2:
      delete out[key];
      for (const required of schema.required ?? []) if (rng.chance(0.5)) delete out[required];
      break;
    case 3:
      out[rng.pick(['is_superuser', 'creator', 'id', 'project', 'module', 'is_blocked', 'user_id', 'extra'])] = rng.pick<unknown>([1, true, 'x', { a: 1 }]);
      break;
    default:
      for (const k of keys) out[k] = wrongType(rng, schema.properties?.[k] ?? {});
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Encoders

/** Form fields: arrays repeat the field, objects are flattened to JSON text. */
function formPairs(body: unknown): [string, string][] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [['value', JSON.stringify(body)]];
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) pairs.push([key, typeof item === 'string' ? item : item === null ? '' : JSON.stringify(item)]);
  }
  return pairs;
}

/** Percent-encoding of the UTF-8 bytes; unlike encodeURIComponent it takes lone surrogates (as U+FFFD). */
const percentEncode = (value: string): string =>
  [...Buffer.from(value, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`)).join('');

const formEncode = (body: unknown): string => formPairs(body).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');

export interface Upload {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

function multipart(boundary: string, body: unknown, uploads: Upload[]): Buffer {
  const chunks: Buffer[] = [];
  for (const [key, value] of formPairs(body)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`));
  }
  for (const upload of uploads) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${upload.field}"; filename="${upload.filename}"\r\nContent-Type: ${upload.type}\r\n\r\n`));
    chunks.push(upload.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Broken multipart bodies: truncated, mismatched boundary, too many parts or files, odd file names. */
function hostileMultipart(rng: Random, boundary: string, body: unknown, images: Images, field: string): Buffer {
  const good = multipart(boundary, body, [{ field, filename: 'a.png', type: 'image/png', data: images.png }]);
  switch (rng.int(0, 9)) {
    case 0:
      return good.subarray(0, rng.int(1, good.length - 1));
    case 1:
      return Buffer.from(good.toString('latin1').replaceAll(boundary, 'other'), 'latin1');
    case 2:
      return multipart(boundary, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, 'x'])), []);
    case 3:
      return multipart(boundary, body, Array.from({ length: 4 }, () => ({ field, filename: 'a.png', type: 'image/png', data: images.png })));
    case 4:
      return multipart(boundary, body, [{ field, filename: '../../../etc/passwd\r\nX-Injected: 1', type: 'image/png', data: images.png }]);
    case 5:
      return multipart(boundary, body, [{ field, filename: 'a.png', type: 'image/png', data: images.truncated }]);
    case 6:
      return multipart(boundary, body, [{ field, filename: 'a.svg', type: 'image/svg+xml', data: Buffer.from('<svg onload="alert(1)"/>') }]);
    case 7:
      return multipart(boundary, body, [{ field, filename: 'a.png', type: 'image/png', data: Buffer.alloc(rng.pick([0, 6 * 1024 * 1024]), 0x41) }]);
    case 8:
      return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${boundary}--\r\n`);
    default:
      return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${'x'.repeat(10)}`);
  }
}

export interface Images {
  /** A small valid PNG of the minimum accepted size. */
  png: Buffer;
  /** The same PNG cut short. */
  truncated: Buffer;
}

// ---------------------------------------------------------------------------------------------
// Requests

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
export const isSafeMethod = (method: string): boolean => SAFE.has(method);

const UPLOAD_FIELD: Record<string, string> = { '/api/account/': 'user_image' };
const uploadField = (path: string) => UPLOAD_FIELD[path] ?? 'image';

function fillPath(rng: Random, operation: Operation, known: Known, hostileParam: boolean): string {
  const broken = hostileParam && operation.pathParams.length ? rng.pick(operation.pathParams).name : null;
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === broken ? rng.pick(HOSTILE_PARAMS) : encodeURIComponent(validParam(rng, name, operation.path, known)).replace(/%2F/g, name === '*' ? '/' : '%2F'),
  );
}

function validQuery(rng: Random, operation: Operation): string {
  const parts = operation.queryParams
    .filter((p) => p.required || rng.chance(0.4))
    .map((p) => `${p.name}=${encodeURIComponent(rng.pick(QUERY_HINTS[p.name] ?? ['1', 'x']))}`);
  return parts.join('&');
}

const HOSTILE_KINDS = ['path-param', 'url', 'query', 'headers', 'body-field', 'body-json', 'media-type', 'multipart', 'form', 'body-on-read'] as const;

/** One request for an operation, as a caller, valid or with one part made hostile. */
export function generateRequest(rng: Random, operation: Operation, caller: Caller, known: Known, images: Images, hostileShare = 0.7): FuzzRequest {
  const mode = rng.chance(hostileShare) ? 'hostile' : 'valid';
  const kind = mode === 'valid' ? 'valid' : rng.pick(HOSTILE_KINDS);
  const realm = operation.page ? caller.pages.headers : operation.path.startsWith('/api/') ? caller.api : caller.usersvc;
  const headers: Record<string, string> = { ...realm };
  let path = fillPath(rng, operation, known, kind === 'path-param');
  if (kind === 'path-param' && operation.pathParams.length === 0) path = `${path}${rng.pick(HOSTILE_PARAMS)}/`;
  const query = kind === 'query' ? hostileQuery(rng, operation) : validQuery(rng, operation);
  let url = query ? `${path}?${query}` : path;
  if (kind === 'url') url = hostileUrl(rng, url);
  if (kind === 'headers') Object.assign(headers, hostileHeaders(rng, known));
  let payload: string | Buffer | undefined;
  const schema = operation.bodySchema;
  if (schema) {
    const generated = validValue(rng, schema, known, operation);
    // A page form carries the caller's form token (now and then not: the CSRF refusal is fuzzed too).
    const valid = operation.page && typeof generated === 'object' && generated !== null && rng.chance(0.95) ? { csrfmiddlewaretoken: caller.pages.csrf, ...generated } : generated;
    const mediaType = rng.pick(operation.mediaTypes);
    const body = kind === 'body-field' && typeof valid === 'object' && valid !== null ? brokenBody(rng, valid as Record<string, unknown>, schema) : valid;
    const boundary = `----fuzz${rng.int(1, 1e9)}`;
    if (kind === 'body-json') {
      headers['content-type'] = 'application/json';
      payload = hostileJsonText(rng);
    } else if (kind === 'media-type') {
      headers['content-type'] = rng.pick(HOSTILE_MEDIA_TYPES);
      payload = rng.chance(0.5) ? JSON.stringify(body) : formEncode(body);
    } else if (kind === 'multipart') {
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      payload = hostileMultipart(rng, boundary, body, images, uploadField(operation.path));
    } else if (kind === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = rng.pick(['name=%ZZ&description=%', 'a[b]=1&labels[]=x&labels=y', '=&=&&', `name=${'%ff%fe'.repeat(100)}&description=%00`, formEncode(body) + '&' + formEncode(body)]);
    } else if (mediaType === 'multipart/form-data') {
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      const withImage = rng.chance(0.3) ? [{ field: uploadField(operation.path), filename: 'idea.png', type: 'image/png', data: images.png }] : [];
      payload = multipart(boundary, body, withImage);
    } else if (mediaType === 'application/x-www-form-urlencoded') {
      headers['content-type'] = mediaType;
      payload = formEncode(body);
    } else {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
  } else if (kind === 'body-on-read' || (mode === 'hostile' && rng.chance(0.2))) {
    headers['content-type'] = rng.pick(['application/json', 'text/plain', 'multipart/form-data; boundary=x']);
    payload = rng.pick(['{"a":1}', '{', '--x\r\n', 'x'.repeat(100_000)]);
  }
  return { operation, caller: caller.name, mode, kind, method: operation.method, url, headers, payload };
}
