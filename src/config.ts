import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

/** The platform's configuration: read once from the environment, validated, typed. */
/** How long clients may take, and how many connections one address may hold (finding F8; README's config table). */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** 0: no cap. */
  connectionsPerIp: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  /** Where uploaded media live: `directory` (DATA_DIR/media, one machine) or `database` (the table media_files, shared by every instance). */
  mediaStore: 'directory' | 'database';
  /** Worker processes serving the port (node:cluster); 1 serves from the starting process itself. */
  webConcurrency: number;
  /** PostgreSQL connections of the whole server, shared evenly by its workers. */
  databasePoolSize: number;
  secretKey: string;
  /** The origin of every absolute link (e-mails, API image URLs); never taken from a request's Host. */
  baseUrl: string;
  timeZone: string;
  redisUrl: string | null;
  /** What every Redis key and pub/sub channel of this installation begins with (REDIS_PREFIX): two installations may share one Redis. */
  redisPrefix: string;
  seedDemo: boolean;
  smtpUrl: string | null;
  mailFrom: string;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeSeconds: number;
  loginFailureLimit: number;
  loginFailureWindowSeconds: number;
  /** Reports one user may file in 10 minutes (issue 21, finding 9). */
  reportLimit: number;
  /** Work of the sign-up spam challenge: SHA-256 rounds per attempt (src/http/challenge.ts). */
  challengeCost: number;
  /** Sign-ups allowed per client IP per hour (and 3 per e-mail address). */
  signupLimitPerIp: number;
  /** Unregistered ballots one client address may cast in one poll per hour (POLL_BALLOT_LIMIT_PER_IP). */
  pollBallotLimitPerIp: number;
  /** Header, request and keep-alive timeouts and the per-address connection cap (F8). */
  connections: ConnectionLimits;
  logLevel: string;
  /** Which proxies' X-Forwarded-For to believe: false, or addresses/CIDRs (see README). */
  trustProxy: false | string[];
  /** The user/session service's first admin, created at start when missing. */
  usersvcAdmin: UsersvcAdmin | null;
  usersvcSessionLifetimeSeconds: number;
  /** The user/session service's proxy: service id → upstream base URL (empty: proxying off). */
  usersvcProxyTargets: Record<string, string>;
  /** OpenID Connect providers offered for social login. */
  oidcProviders: OidcProviderConfig[];
  /** The maps' tiles (Leaflet's URL template, `{s}`, `{z}`, `{x}`, `{y}`), their attribution (HTML), and the optional Nominatim-compatible geocoder of the address search. */
  maps: MapConfig;
  /** The machine summaries' language model (an OpenAI-compatible chat completions API); null: summaries are off (the default). */
  summaries: SummaryConfig | null;
}

export interface SummaryConfig {
  /** The API's base URL, e.g. `http://127.0.0.1:8080/v1` (the server posts to `<url>/chat/completions`). */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey: string | null;
}

/** SUMMARIES_URL turns summaries on and then needs SUMMARIES_MODEL; SUMMARIES_API_KEY is optional. */
function summariesVar(env: Env): SummaryConfig | null {
  const url = urlVar(env, 'SUMMARIES_URL', ['https:', 'http:']);
  if (!url) return null;
  const model = env.SUMMARIES_MODEL?.trim();
  if (!model) throw new ConfigError('SUMMARIES_URL is set: SUMMARIES_MODEL must name the model to ask');
  return { url: url.replace(/\/+$/, ''), model, apiKey: env.SUMMARIES_API_KEY || null };
}

export interface MapConfig {
  tilesUrl: string;
  attribution: string;
  /** null: no address search (the default; the server itself never calls it). */
  geocoderUrl: string | null;
}

/** OpenStreetMap's public tiles, as adhocracy+ uses them (§11). */
const DEFAULT_MAPS: MapConfig = {
  tilesUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  geocoderUrl: null,
};

function mapsVar(env: Env): MapConfig {
  const tiles = env.MAP_TILES_URL || DEFAULT_MAPS.tilesUrl;
  if (!/^https?:\/\/[^/\s]+\/\S*$/.test(tiles)) throw new ConfigError('MAP_TILES_URL must be an http(s) URL template such as https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png');
  return {
    tilesUrl: tiles,
    attribution: env.MAP_ATTRIBUTION ?? DEFAULT_MAPS.attribution,
    geocoderUrl: urlVar(env, 'GEOCODER_URL', ['https:', 'http:']),
  };
}

export interface OidcProviderConfig {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

interface UsersvcAdmin {
  name: string;
  email: string;
  password: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** HEADERS_TIMEOUT ≤ REQUEST_TIMEOUT (Node refuses a header timeout longer than the request's), KEEP_ALIVE_TIMEOUT, CONNECTIONS_PER_IP. */
function connectionLimitsVar(env: Env): ConnectionLimits {
  const headers = intVar(env, 'HEADERS_TIMEOUT', 10, 1, 3600);
  const request = intVar(env, 'REQUEST_TIMEOUT', 60, 1, 3600);
  if (headers > request) throw new ConfigError(`HEADERS_TIMEOUT (${headers}) must not be longer than REQUEST_TIMEOUT (${request})`);
  return {
    headersTimeoutMs: headers * 1000,
    requestTimeoutMs: request * 1000,
    keepAliveTimeoutMs: intVar(env, 'KEEP_ALIVE_TIMEOUT', 5, 1, 3600) * 1000,
    // A class of 60 behind one NAT address: each device's event stream plus up to four keep-alive connections (docs/operations.md).
    connectionsPerIp: intVar(env, 'CONNECTIONS_PER_IP', 300, 0, 1_000_000),
  };
}

function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function urlVar(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

function timeZoneVar(env: Env): string {
  const tz = env.TIME_ZONE || 'Europe/Berlin';
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    throw new ConfigError(`TIME_ZONE "${tz}" is not a known time zone`);
  }
  return tz;
}

/** REDIS_PREFIX: "allmende:" unless set; letters, digits and . _ : - only (it becomes part of key and channel names). */
function redisPrefixVar(env: Env): string {
  const prefix = env.REDIS_PREFIX ?? 'allmende:';
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(prefix)) throw new ConfigError(`REDIS_PREFIX must be 1 to 64 letters, digits or . _ : -, got "${prefix}"`);
  return prefix;
}

/** TRUST_PROXY: unset or "false" trusts no proxy; otherwise a comma-separated list of addresses or CIDRs ("loopback" allowed). */
function trustProxyVar(env: Env): false | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || /^(0|false|no|off)$/i.test(raw)) return false;
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (!/^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/.test(entry)) {
      throw new ConfigError(`TRUST_PROXY entry "${entry}" is not an address, CIDR range or loopback/linklocal/uniquelocal`);
    }
  }
  return entries;
}

/**
 * WEB_CONCURRENCY: on PostgreSQL every core by default; the embedded database opens in one process
 * only, so there it must stay 1.
 */
function webConcurrencyVar(env: Env, databaseUrl: string | null): number {
  const workers = intVar(env, 'WEB_CONCURRENCY', databaseUrl ? availableParallelism() : 1, 1, 256);
  if (workers > 1 && !databaseUrl) {
    throw new ConfigError('WEB_CONCURRENCY above 1 needs PostgreSQL (DATABASE_URL): the embedded database is opened by one process only');
  }
  return workers;
}

/** MEDIA_STORE: directory (default) or database. */
function mediaStoreVar(env: Env): Config['mediaStore'] {
  const raw = env.MEDIA_STORE || 'directory';
  if (raw !== 'directory' && raw !== 'database') throw new ConfigError(`MEDIA_STORE must be directory or database, got "${raw}"`);
  return raw;
}

/**
 * SECRET_KEY from the environment, or one generated once and kept in DATA_DIR: never in
 * production, and never with MEDIA_STORE=database (several machines: each would make its own, and
 * sessions, form tokens and JWTs of one would not hold on another).
 */
function secretKeyVar(env: Env, dataDir: string, production: boolean, mediaStore: Config['mediaStore']): string {
  const given = env.SECRET_KEY;
  if (given) {
    if (given.length < 32) throw new ConfigError('SECRET_KEY must be at least 32 characters long');
    return given;
  }
  if (production) throw new ConfigError('SECRET_KEY must be set when NODE_ENV=production');
  if (mediaStore === 'database') throw new ConfigError('SECRET_KEY must be set with MEDIA_STORE=database: every instance must sign with the same key');
  const file = join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  return key;
}

function usersvcAdminVar(env: Env): UsersvcAdmin | null {
  const name = env.USERSVC_ADMIN_NAME || '';
  const password = env.USERSVC_ADMIN_PASSWORD || '';
  if (!name && !password) return null;
  if (!name || !password) throw new ConfigError('USERSVC_ADMIN_NAME and USERSVC_ADMIN_PASSWORD must be set together');
  if (password.length < 8) throw new ConfigError('USERSVC_ADMIN_PASSWORD must be at least 8 characters long');
  const email = env.USERSVC_ADMIN_EMAIL || `${name.replace(/[^A-Za-z0-9._-]/g, '_')}@usersvc.invalid`;
  if (!email.includes('@')) throw new ConfigError('USERSVC_ADMIN_EMAIL must be an e-mail address');
  return { name, email, password };
}

/** USERSVC_PROXY_TARGETS: a JSON object mapping service ids to http(s) base URLs. */
function proxyTargetsVar(env: Env): Record<string, string> {
  const raw = env.USERSVC_PROXY_TARGETS;
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('USERSVC_PROXY_TARGETS must be a JSON object like {"<service id>": "http://127.0.0.1:9000"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('USERSVC_PROXY_TARGETS must be a JSON object like {"<service id>": "http://127.0.0.1:9000"}');
  }
  const targets: Record<string, string> = {};
  for (const [service, target] of Object.entries(parsed)) {
    if (typeof target !== 'string' || !/^https?:\/\//.test(target) || !URL.canParse(target)) {
      throw new ConfigError(`USERSVC_PROXY_TARGETS: the target of "${service}" must be an http:// or https:// URL`);
    }
    targets[service] = target;
  }
  return targets;
}

/** OIDC_PROVIDERS=a,b with OIDC_A_ISSUER, OIDC_A_CLIENT_ID, OIDC_A_CLIENT_SECRET and optional OIDC_A_NAME. */
function oidcProvidersVar(env: Env): OidcProviderConfig[] {
  const ids = (env.OIDC_PROVIDERS ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  return ids.map((id) => {
    if (!/^[a-z0-9_-]{1,32}$/.test(id)) throw new ConfigError(`OIDC_PROVIDERS: "${id}" must be lower-case letters, digits, - or _`);
    const prefix = `OIDC_${id.toUpperCase().replace(/-/g, '_')}_`;
    const issuer = urlVar(env, `${prefix}ISSUER`, ['https:', 'http:']);
    const clientId = env[`${prefix}CLIENT_ID`];
    if (!issuer || !clientId) throw new ConfigError(`${prefix}ISSUER and ${prefix}CLIENT_ID must be set for OIDC provider "${id}"`);
    return { id, name: env[`${prefix}NAME`] || id, issuer, clientId, clientSecret: env[`${prefix}CLIENT_SECRET`] ?? '' };
  });
}

/**
 * BASE_URL: required in production, because links in e-mails must not follow a request's Host header
 * (host-header poisoning); in development and tests it defaults to the address the server listens on.
 */
function baseUrlVar(env: Env, production: boolean, host: string, port: number): string {
  const given = urlVar(env, 'BASE_URL', ['http:', 'https:']);
  if (given) return given.replace(/\/+$/, '');
  if (production) throw new ConfigError('BASE_URL must be set when NODE_ENV=production (the public origin for links, e.g. https://beteiligung.example.org)');
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Without MAIL_FROM, mail comes from noreply@ the host of BASE_URL: an address of the platform's own domain (issue 22, item 11). */
const defaultMailFrom = (baseUrl: string) => `Allmende <noreply@${new URL(baseUrl).hostname.replace(/^\[|\]$/g, '')}>`;

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = env.NODE_ENV || 'development';
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    throw new ConfigError(`NODE_ENV must be development, production or test, got "${nodeEnv}"`);
  }
  const production = nodeEnv === 'production';
  const dataDir = resolve(env.DATA_DIR || './data');
  const host = env.HOST || '127.0.0.1';
  const port = intVar(env, 'PORT', 8004, 0, 65535);
  const databaseUrl = urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const webConcurrency = webConcurrencyVar(env, databaseUrl);
  const databasePoolSize = intVar(env, 'DATABASE_POOL_SIZE', 20, webConcurrency, 10_000);
  const mediaStore = mediaStoreVar(env);
  const secretKey = secretKeyVar(env, dataDir, production, mediaStore);
  const baseUrl = baseUrlVar(env, production, host, port);
  return {
    env: nodeEnv as Config['env'],
    host,
    port,
    dataDir,
    databaseUrl,
    mediaStore,
    webConcurrency,
    databasePoolSize,
    secretKey,
    baseUrl,
    timeZone: timeZoneVar(env),
    redisUrl: urlVar(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: redisPrefixVar(env),
    seedDemo: boolVar(env, 'SEED_DEMO', true),
    smtpUrl: urlVar(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || defaultMailFrom(baseUrl),
    accessTokenLifetimeSeconds: intVar(env, 'ACCESS_TOKEN_LIFETIME', 5 * 3600, 1),
    refreshTokenLifetimeSeconds: intVar(env, 'REFRESH_TOKEN_LIFETIME', 24 * 3600, 1),
    loginFailureLimit: intVar(env, 'LOGIN_FAILURE_LIMIT', 10, 1),
    loginFailureWindowSeconds: intVar(env, 'LOGIN_FAILURE_WINDOW', 300, 1),
    reportLimit: intVar(env, 'REPORT_LIMIT', 10, 1),
    challengeCost: intVar(env, 'CHALLENGE_COST', 200, 1, 100_000),
    signupLimitPerIp: intVar(env, 'SIGNUP_LIMIT_PER_IP', 10, 1),
    pollBallotLimitPerIp: intVar(env, 'POLL_BALLOT_LIMIT_PER_IP', 20, 1),
    connections: connectionLimitsVar(env),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: trustProxyVar(env),
    usersvcAdmin: usersvcAdminVar(env),
    usersvcSessionLifetimeSeconds: intVar(env, 'USERSVC_SESSION_LIFETIME', 14 * 24 * 3600, 1, 2_147_483_647),
    usersvcProxyTargets: proxyTargetsVar(env),
    oidcProviders: oidcProvidersVar(env),
    maps: mapsVar(env),
    summaries: summariesVar(env),
  };
}

/** A config for tests and tools: no files touched, fixed secret. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    host: '127.0.0.1',
    port: 0,
    dataDir: '',
    databaseUrl: null,
    mediaStore: 'directory',
    webConcurrency: 1,
    databasePoolSize: 5,
    secretKey: 'test-secret-key-test-secret-key-test-secret-key',
    baseUrl: 'http://localhost:80',
    timeZone: 'Europe/Berlin',
    redisUrl: null,
    redisPrefix: 'allmende:',
    seedDemo: false,
    smtpUrl: null,
    mailFrom: 'Allmende <noreply@allmende.invalid>',
    accessTokenLifetimeSeconds: 5 * 3600,
    refreshTokenLifetimeSeconds: 24 * 3600,
    loginFailureLimit: 10,
    loginFailureWindowSeconds: 300,
    reportLimit: 10,
    challengeCost: 1,
    signupLimitPerIp: 100,
    pollBallotLimitPerIp: 20,
    connections: { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, connectionsPerIp: 0 },
    logLevel: 'silent',
    trustProxy: false,
    usersvcAdmin: null,
    usersvcSessionLifetimeSeconds: 14 * 24 * 3600,
    usersvcProxyTargets: {},
    oidcProviders: [],
    maps: DEFAULT_MAPS,
    summaries: null,
    ...overrides,
  };
}
