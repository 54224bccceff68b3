/**
 * URL slugs of organisations, projects and modules: made from names, kept unique, and never one of
 * the fixed path segments that stand where a slug stands in a route (`/<org>/dashboard/projects/create/`
 * beside `/<org>/dashboard/projects/<slug>/`, `/<org>/projects/module/<slug>/` beside
 * `/<org>/projects/<slug>/`, `/api/…` beside `/<org>/`). `test/core/projects/slugs.test.ts` walks the
 * routes and fails when a new fixed segment is missing here.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  // beside /<org>/
  'account', 'accounts', 'api', 'backoffice', 'challenge', 'comments', 'healthz', 'i18n', 'media', 'pages', 'profile',
  'proxy-test', 'service', 'session', 'setup', 'static', 'user', 'userdashboard',
  // beside /<org>/dashboard/projects/<slug>/ and /<org>/projects/<slug>/
  'create', 'module', 'moderator-invites', 'participant-invites',
  // beside /<org>/interactiveevents/<module slug>/ (the presentation screen)
  'present',
  // beside /<org>/ (the map settings of the browser's map script, /maps/config/)
  'maps',
  // beside /<org>/ (a moderator's remark on an item, /moderatorremarks/<ct>/<pk>/)
  'moderatorremarks',
  // beside /<org>/ (the platform's contact form, /contact/)
  'contact',
  // beside /<org>/results/project/<slug>/ (a result's own pages, /<org>/results/<id>/update/ and the like)
  'delete', 'entries', 'links', 'update',
]);

/** Paths match case-sensitively, but a reserved word in capitals is refused all the same. */
export const isReservedSlug = (slug: string) => RESERVED_SLUGS.has(slug.toLowerCase());

/** A URL slug from a name ("Grüne Höfe!" → "grune-hofe"). */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** `base`, or `base-<n>` with the smallest n ≥ 2 that is neither taken nor reserved. */
export function freeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const free = (slug: string) => !used.has(slug) && !isReservedSlug(slug);
  if (free(base)) return base;
  let n = 2;
  while (!free(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
