import { t } from '../../i18n/index.js';
import { labelIn, type Text } from '../../core/modules/registry.js';
import type { PageContext } from '../../web/context.js';
import { Layout } from '../../web/layout.js';
import { type FrameData, ProjectFrame } from '../projects/views.js';
import { moduleExportPath } from '../../web/paths.js';

interface ExportView {
  orgSlug: string;
  module: { slug: string; name: string };
  project: { name: string };
  /** The module type's export files. */
  files: { name: string; heading: string | Text }[];
}

function Downloads({ page, view }: { page: PageContext; view: ExportView }) {
  const { lang } = page;
  const link = (file: string, label: string, heading: string) => (
    <a class="btn btn-secondary" href={moduleExportPath(view.orgSlug, view.module.slug, file)} download aria-label={`${heading}: ${label}`}>
      {label}
    </a>
  );
  return (
    <>
      <p class="help">{t(lang, 'The files hold every contribution of the module at the moment of download. Dates are given with their time zone offset.')}</p>
      {view.files.map(({ name, heading }) => {
        const label = labelIn(lang, heading);
        return (
          <section aria-labelledby={`export-${name}`}>
            <h2 id={`export-${name}`}>{label}</h2>
            <div class="actions">
              {link(`${name}.xlsx`, t(lang, 'Excel (xlsx)'), label)}
              {link(`${name}.csv`, t(lang, 'CSV'), label)}
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
