/**
 * adhocracy4's and adhocracy+'s own web widgets, built from their sources for the browser tests
 * (issue 38): a4's comment box (`comments_async`), ratings, follows and reports, a+'s poll and
 * live-question widgets. The sources come from the fetched mirrors of liqd/adhocracy4 and
 * liqd/adhocracy-plus (`WIDGET_MIRRORS`, default /work/.mirror), at the commits pinned below; esbuild
 * bundles them with React, jQuery and js-cookie (devDependencies, test only) into one script, cached
 * under .test-build/widgets/ by everything that decides its content. Nothing of it reaches the
 * production build (scripts/build.ts bundles src/ only).
 *
 * What the build supplies as a+'s webpack set-up does (docs/api.md, "Using adhocracy4's and adhocracy+'s web widgets"):
 * - `django`: Django's JavaScript catalogue (`gettext` and friends), here English as written;
 * - `@prosopo/procaptcha-wrapper`: Allmende's stand-in, src/web/static/prosopo-altcha.js (the ALTCHA widget);
 * - `react-markdown` and `react-slick` (rendering only: a comment's text, the carousel of a poll's
 *   open answers): small stand-ins that show the text, so that the build needs no unified/remark or
 *   slick packages; the requests the widgets send are untouched by them;
 * - the start-up of a+'s app.js: `window.adhocracy4.getCurrentPath` and the four a4 widgets'
 *   initialisation on their `data-a4-widget` elements (the a+ widgets start themselves).
 */
import { build, type Plugin, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIRRORS = process.env.WIDGET_MIRRORS ?? '/work/.mirror';
/** The sources the tests were written against (the mirrors' newest snapshot when written). */
export const SOURCES = {
  a4: { git: join(MIRRORS, 'liqd+adhocracy4', 'repo'), commit: 'ee79cd8cd', paths: ['adhocracy4/static', 'adhocracy4/forms/static', 'adhocracy4/comments_async/static', 'adhocracy4/ratings/static', 'adhocracy4/follows/static', 'adhocracy4/reports/static', 'adhocracy4/polls/static'] },
  aplus: { git: join(MIRRORS, 'liqd+adhocracy-plus', 'repo'), commit: '05b4dc35a', paths: ['apps/polls/assets', 'apps/interactiveevents/assets'] },
};

/**
 * Where the mirrors are missing (a machine that never fetched liqd/adhocracy4 and
 * liqd/adhocracy-plus), why: the widget journeys are then not registered (docs/testing.md).
 */
export const widgetSourcesMissing = Object.values(SOURCES).find((source) => !existsSync(source.git))?.git ?? null;

const CACHE = resolve('.test-build', 'widgets');
const SHIM = fileURLToPath(new URL('../../../src/web/static/prosopo-altcha.js', import.meta.url));

const a4 = (path: string) => `adhocracy4/adhocracy4/${path}`;
/** Our start-up of the widgets, in the manner of a+'s app.js. */
const ENTRY = `
import { initialise } from '${a4('static/widget')}';
import { renderComment } from '${a4('comments_async/static/comments_async/react_comments_async')}';
import * as ratings from '${a4('ratings/static/ratings/react_ratings')}';
import * as follows from '${a4('follows/static/follows/react_follows')}';
import * as reports from '${a4('reports/static/reports/react_reports')}';
import './aplus/apps/polls/assets/react_polls';
import './aplus/apps/interactiveevents/assets/react_interactiveevents_init';
window.adhocracy4 = { getCurrentPath: () => location.pathname };
document.addEventListener('DOMContentLoaded', () => {
  initialise('a4', 'comment_async', renderComment);
  initialise('a4', 'follows', follows.renderFollow);
  initialise('a4', 'ratings', ratings.renderRatings);
  initialise('a4', 'reports', reports.renderReports);
});
`;

const STAND_INS: Record<string, string> = {
  django: `
const interpolate = (text, values, named) => named
  ? text.replace(/%\\((\\w+)\\)s/g, (_, key) => String(values[key]))
  : text.replace(/%s/g, () => String(values.shift()));
export default {
  gettext: (text) => text,
  gettext_noop: (text) => text,
  ngettext: (one, many, n) => (n === 1 ? one : many),
  pgettext: (_context, text) => text,
  npgettext: (_context, one, many, n) => (n === 1 ? one : many),
  interpolate,
};`,
  'react-markdown': `
import React from 'react';
export default function Markdown({ children }) { return React.createElement('div', { className: 'markdown' }, children); }`,
  'react-slick': `
import React from 'react';
export default class Slider extends React.Component {
  slickPrev() {}
  slickNext() {}
  render() { return React.createElement('div', { className: 'slider' }, this.props.children); }
}`,
  adhocracy4: `export * as widget from '${a4('static/widget')}';`,
};

function standIns(): Plugin {
  return {
    name: 'widget-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^(django|react-markdown|react-slick|adhocracy4)$/ }, (args) => ({ path: args.path, namespace: 'stand-in' }));
      b.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({ contents: STAND_INS[args.path], loader: 'js', resolveDir: join(CACHE, 'sources') }));
      b.onResolve({ filter: /^@prosopo\/procaptcha-wrapper$/ }, () => ({ path: SHIM }));
    },
  };
}

/**
 * a+'s Babel turns every module into CommonJS (transform-modules-commonjs), so a4's files that
 * `import` and then assign `module.exports` work there; esbuild would take them for ES modules
 * without exports. Those files are turned into CommonJS first, as Babel does.
 */
function mixedModules(): Plugin {
  return {
    name: 'widget-mixed-modules',
    setup(b) {
      b.onLoad({ filter: /[\\/]sources[\\/].*\.jsx?$/ }, async (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!/\bmodule\.exports\b/.test(source) || !/^import\s/m.test(source)) return undefined;
        const { code } = await transform(source, { loader: 'jsx', format: 'cjs', jsx: 'transform', jsxFactory: 'React.createElement', jsxFragment: 'React.Fragment', sourcefile: args.path });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/** The sources at their pinned commits, under .test-build/widgets/sources (a4 where a+ finds it: node_modules/adhocracy4). */
function extractSources(): string {
  const root = join(CACHE, 'sources');
  const stamp = join(root, `${SOURCES.a4.commit}-${SOURCES.aplus.commit}`);
  if (existsSync(stamp)) return root;
  rmSync(root, { recursive: true, force: true });
  for (const [name, source] of Object.entries(SOURCES)) {
    if (!existsSync(source.git)) throw new Error(`The widget sources are missing: ${source.git} (fetch github:liqd/${name === 'a4' ? 'adhocracy4' : 'adhocracy-plus'}; WIDGET_MIRRORS names the mirrors' folder)`);
    const target = name === 'a4' ? join(root, 'node_modules', 'adhocracy4') : join(root, 'aplus');
    mkdirSync(target, { recursive: true });
    const tar = execFileSync('git', ['--git-dir', source.git, 'archive', '--format=tar', source.commit, ...source.paths], { maxBuffer: 64 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', target], { input: tar });
  }
  // a4 is a CommonJS package for a+ (no "type"); without this its files would count as this repository's ES modules.
  writeFileSync(join(root, 'node_modules', 'adhocracy4', 'package.json'), '{"name": "adhocracy4", "private": true}\n');
  mkdirSync(stamp);
  return root;
}

/** The bundle's path, built when no cached one fits (the pinned commits, this file, the stand-in for Prosopo, the packages' versions). */
export async function widgetBundle(): Promise<string> {
  const versions = ['react', 'react-dom', 'jquery', 'js-cookie', 'immutability-helper'].map((name) => (JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8')) as { version: string }).version);
  const key = createHash('sha256')
    .update(JSON.stringify([SOURCES.a4.commit, SOURCES.aplus.commit, versions]))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(readFileSync(SHIM))
    .digest('hex')
    .slice(0, 16);
  const bundle = join(CACHE, `widgets-${key}.js`);
  if (existsSync(bundle)) return bundle;
  const root = extractSources();
  const partial = `${bundle}.${process.pid}.tmp`;
  await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'js', sourcefile: 'widgets-entry.js' },
    bundle: true,
    outfile: partial,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    loader: { '.js': 'jsx' },
    jsx: 'transform',
    jsxFactory: 'React.createElement',
    jsxFragment: 'React.Fragment',
    tsconfigRaw: '{}',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [standIns(), mixedModules()],
    logLevel: 'error',
  });
  renameSync(partial, bundle);
  return bundle;
}
