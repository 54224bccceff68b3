import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { Layout } from '../../web/layout.js';
import { type FrameData, ProjectFrame } from '../projects/views.js';
import { moduleExportPath } from '../../web/paths.js';

export interface ExportView {
  orgSlug: string;
  module: { slug: string; name: string };
  project: { name: string };
}

function Downloads({ page, view }: { page: PageContext; view: ExportView }) {
  const { lang } = page;
  const link = (file: string, label: string, kind: string) => (
    <a class="btn btn-secondary" href={moduleExportPath(view.orgSlug, view.module.slug, file)} download aria-label={`${t(lang, kind)}: ${label}`}>
      {label}
    </a>
  );
  return (
    <>
      <p class="help">{t(lang, 'The files hold every contribution of the module at the moment of download. Dates are given with their time zone offset.')}</p>
      {(['ideas', 'comments'] as const).map((kind) => {
        const heading = kind === 'ideas' ? 'Ideas' : 'Comments';
        return (
          <section aria-labelledby={`export-${kind}`}>
            <h2 id={`export-${kind}`}>{t(lang, heading)}</h2>
            <div class="actions">
              {link(`${kind}.xlsx`, t(lang, 'Excel (xlsx)'), heading)}
              {link(`${kind}.csv`, t(lang, 'CSV'), heading)}
            </div>
          </section>
        );
      })}
    </>
  );
}

/** §B16.1: a module's export page; inside the project dashboard for initiators, on its own for moderators. */
export function ExportPage({ page, view, frame }: { page: PageContext; view: ExportView; frame: FrameData | null }) {
  const title = `${view.module.name}: ${t(page.lang, 'Export')}`;
  if (frame) {
    return (
      <ProjectFrame page={page} data={frame} title={title}>
        <Downloads page={page} view={view} />
      </ProjectFrame>
    );
  }
  return (
    <Layout page={page} title={`${title} — ${view.project.name}`}>
      <h1>{title}</h1>
      <Downloads page={page} view={view} />
    </Layout>
  );
}
