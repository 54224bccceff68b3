import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { Layout } from '../../web/layout.js';
import { sendPage } from '../../web/render.js';
import { ProjectTile } from '../../me/dashboard/views.js';
import { type FollowedProject, listedProjects } from '../../me/dashboard/queries.js';
import { byParticipation } from '../../me/dashboard/rules.js';
import { loadProjectContexts } from '../../core/projects/context.js';
import { canViewProject } from '../../core/projects/rules.js';
import { TextPage } from '../legal/pages.js';
import { loadOrganisationProfile, type OrganisationProfile, translated } from '../../core/organisations/queries.js';

const OrgParams = Type.Object({ org: Slug });

/** The start page and the organisation landing pages (§A3). */
export async function organisationPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get('/', pageRoute(), async (request, reply) => {
    const page = await pageContext(request, reply);
    const now = new Date();
    const projects = byParticipation(await listedProjects(db, { publicOnly: true }), now);
    return sendPage(reply, HomePage({ page, projects, now }));
  });

  app.get('/:org/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const organisation = await loadOrganisationProfile(db, request.params.org);
    if (!organisation) throw notFound();
    const now = new Date();
    const listed = await listedProjects(db, { organisationId: organisation.id });
    const contexts = await loadProjectContexts(db, listed.map((p) => p.id), page.user);
    const visible = listed.filter((p) => {
      const context = contexts.get(p.id);
      return context !== undefined && canViewProject(context);
    });
    return sendPage(reply, OrganisationPage({ page, organisation, projects: byParticipation(visible, now), now }));
  });

  /** The "About" page: the organisation's information in the reader's language (§A2, §B3.1). */
  app.get('/:org/information/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const organisation = await loadOrganisationProfile(db, request.params.org);
    if (!organisation) throw notFound();
    const page = await pageContext(request, reply);
    const information = translated(organisation, 'information', page.lang);
    return sendPage(
      reply,
      TextPage({ page, title: `${t(page.lang, 'About')} — ${organisation.name}`, body: information, empty: t(page.lang, 'This page has not been written yet.'), organisation: footerOf(organisation) }),
    );
  });
}

const footerOf = (o: OrganisationProfile) => ({ slug: o.slug, name: o.name, legal: o.legal });

export function Tiles({ page, projects, now, empty }: { page: PageContext; projects: FollowedProject[]; now: Date; empty: string }) {
  if (!projects.length) return <p>{empty}</p>;
  return (
    <ul class="tiles">
      {projects.map((project) => (
        <ProjectTile page={page} project={project} now={now} />
      ))}
    </ul>
  );
}

export function HomePage({ page, projects, now }: { page: PageContext; projects: FollowedProject[]; now: Date }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Projects')}>
      <h1>{t(lang, 'Projects')}</h1>
      <Tiles page={page} projects={projects} now={now} empty={t(lang, 'There are no projects yet.')} />
    </Layout>
  );
}

export function OrganisationPage(props: { page: PageContext; organisation: OrganisationProfile; projects: FollowedProject[]; now: Date }) {
  const { page, organisation } = props;
  const { lang } = page;
  const slogan = translated(organisation, 'slogan', lang);
  const description = translated(organisation, 'description', lang);
  return (
    <Layout page={page} title={organisation.name} organisation={footerOf(organisation)}>
      {organisation.image && (
        <figure class="organisation-header">
          <img src={`/media/${organisation.image}`} alt="" />
          {organisation.imageCopyright && <figcaption>© {organisation.imageCopyright}</figcaption>}
        </figure>
      )}
      <div class="organisation-head">
        {organisation.logo && <img class="organisation-logo" src={`/media/${organisation.logo}`} alt={t(lang, 'Logo of %(organisation)s', { organisation: organisation.name })} width={96} height={96} />}
        <h1>{organisation.title || organisation.name}</h1>
      </div>
      {slogan && <p class="lead">{slogan}</p>}
      {description && <p>{description}</p>}
      <p>
        <a href={`/${organisation.slug}/information/`}>{t(lang, 'About %(organisation)s', { organisation: organisation.name })}</a>
        {organisation.url && (
          <>
            {' · '}
            <a href={organisation.url} rel="noopener">
              {t(lang, 'Website')}
            </a>
          </>
        )}
      </p>
      <section aria-labelledby="projects-heading">
        <h2 id="projects-heading">{t(lang, 'Projects')}</h2>
        <Tiles page={page} projects={props.projects} now={props.now} empty={t(lang, 'This organisation has no projects yet.')} />
      </section>
    </Layout>
  );
}
