import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance } from 'fastify';
import { type TProperties, Type } from 'typebox';
import type { DbOrTx } from '../../db/client.js';
import { denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { type Lang, t } from '../../i18n/index.js';
import { Breadcrumbs } from '../../web/components.js';
import { type PageContext, pageBasics } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { Layout } from '../../web/layout.js';
import { sendKeptPage } from '../../web/page-keeping.js';
import { moduleExportPath, modulePath, projectPath } from '../../core/urls.js';
import { mayExportModule } from '../../features/exports/rules.js';
import { loadModulePage, loadProjectModules, type PageModule } from '../../core/modules/queries.js';
import { type ModuleContentInput, type ModuleContentPart, registeredModuleTypes } from '../../features/moduletypes/contract.js';
import { type ItemThreads, loadItemThreads, NO_ITEM_THREADS } from '../../features/threads/items.js';
import { moduleClusters } from '../../core/modules/timeline.js';
import { canViewModule } from '../../core/modules/rules.js';
import { PhaseList } from '../../web/phase-list.js';

const ModuleParams = Type.Object({ org: Slug, slug: Slug });

/** What a module's participation view shows: its phases, then the part of every module type that has content here. */
export interface ModuleContentData {
  module: PageModule;
  parts: { part: ModuleContentPart; data: unknown }[];
  threads: ItemThreads;
  now: Date;
}

/** The content parts of the registered module types, each once (types may share one, as the idea types do). */
const contentParts = () => [...new Set(registeredModuleTypes().flatMap((type) => (type.content ? [type.content] : [])))];

/** The module page's query: the selected comment, and what the module types' parts read. */
export const modulePageQuery = () => Type.Object({ ...mergedPageQueries(), comment: Type.Optional(Type.String({ maxLength: 20 })) });

/** Every type's `pageQuery`; a parameter two types take (`ordering`) allows what either allows (each list keeps to its own values). */
function mergedPageQueries(): TProperties {
  const merged: TProperties = {};
  for (const type of registeredModuleTypes()) {
    for (const [name, schema] of Object.entries(type.pageQuery ?? {})) {
      const before = merged[name];
      merged[name] = before && before !== schema ? Type.Optional(Type.Union([before, schema])) : schema;
    }
  }
  return merged;
}

/** Loads a module's participation view for a viewer (the module page, and the project page of a one-module project). */
export async function loadModuleContent(input: ModuleContentInput): Promise<ModuleContentData> {
  const parts: ModuleContentData['parts'] = [];
  for (const part of contentParts()) {
    const data = await part.load(input);
    if (data !== null) parts.push({ part, data });
  }
  const objects = parts.flatMap(({ part, data }) => part.threads?.(data as never) ?? []);
  const threads = objects.length ? await loadItemThreads(input, objects) : NO_ITEM_THREADS;
  return { module: input.module, parts, threads, now: input.context.now };
}

export function ModuleContent({ page, data: content }: { page: PageContext; data: ModuleContentData }) {
  return (
    <>
      <PhaseList page={page} phases={content.module.phases} now={content.now} />
      {content.parts.map(({ part, data }) => (
        <part.View page={page} data={data as never} threads={content.threads} />
      ))}
    </>
  );
}

/** Where a module stands among its project's modules (§A6.2–3): its timeline entry and its neighbours in that entry. */
async function modulePlace(db: DbOrTx, module: { id: number; projectId: number }) {
  const clusters = moduleClusters(await loadProjectModules(db, module.projectId, false));
  const entry = clusters.findIndex((c) => c.modules.some((m) => m.id === module.id));
  const siblings = entry >= 0 ? clusters[entry].modules : [];
  const index = siblings.findIndex((m) => m.id === module.id);
  return { entry, siblings, index, several: clusters.length > 1 };
}

type ModulePlace = Awaited<ReturnType<typeof modulePlace>>;

/** "Previous · k of n · Next" between the modules of a cluster (§A6.2); nothing for a module alone in its entry. */
function ModuleNavigation({ lang, orgSlug, place }: { lang: Lang; orgSlug: string; place: ModulePlace }) {
  const { siblings, index } = place;
  if (siblings.length < 2) return null;
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  return (
    <nav class="pager" aria-label={t(lang, 'Modules of this project')}>
      {previous && (
        <a href={modulePath(orgSlug, previous.slug)} rel="prev">
          {t(lang, 'Previous')}
        </a>
      )}{' '}
      <span>{t(lang, '%(k)s of %(n)s', { k: index + 1, n: siblings.length })}</span>{' '}
      {next && (
        <a href={modulePath(orgSlug, next.slug)} rel="next">
          {t(lang, 'Next')}
        </a>
      )}
    </nav>
  );
}

/** The module page (§A6): the module's participation view under its project's breadcrumb. */
export async function modulePages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  app.get('/:org/projects/module/:slug/', pageRoute({ params: ModuleParams, querystring: modulePageQuery() }), async (request, reply) => {
    const { org, slug } = request.params;
    const viewer = await pageBasics(request, reply);
    const loaded = await loadModulePage(db, org, slug, viewer.user);
    if (!loaded) throw notFound();
    const { module, context, pageVersion } = loaded;
    if (!canViewModule(context)) throw denied(viewer.user);
    /** The page for its viewer (kept: web/page-keeping.ts). */
    const render = async (page: PageContext) => {
      const data = await loadModuleContent({ db, request, config, page, orgSlug: org, path: request.url.split('?')[0], module, context, query: request.query as Record<string, string | undefined> });
      const place = await modulePlace(db, module);
      // Back to the project page at this module's timeline entry (§A6.1).
      const back = place.several && place.entry >= 0 ? `${projectPath(org, module.projectSlug)}?initialSlide=${place.entry}` : projectPath(org, module.projectSlug);
      return (
        <Layout page={page} title={module.name}>
          <Breadcrumbs
            lang={page.lang}
            items={[
              { href: `/${org}/`, label: module.organisationName },
              { href: back, label: module.projectName },
            ]}
          />
          <h1>{module.name}</h1>
          <ModuleNavigation lang={page.lang} orgSlug={org} place={place} />
          {module.isDraft && <p class="badge">{t(page.lang, 'draft')}</p>}
          {module.description && <p class="lead">{module.description}</p>}
          {mayExportModule(context.project, module) && (
            <p>
              <a class="btn btn-secondary" href={moduleExportPath(org, module.slug)}>
                {t(page.lang, 'Export the contributions')}
              </a>
            </p>
          )}
          <ModuleContent page={page} data={data} />
        </Layout>
      );
    };
    return sendKeptPage(request, reply, viewer, pageVersion, render);
  });
}
