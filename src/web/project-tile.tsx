import { formatDate } from '../i18n/dates.js';
import { t } from '../i18n/index.js';
import type { PageContext } from './context.js';
import { moduleRunningProgress, timeRemaining } from '../core/modules/timeline.js';
import { projectGroup } from '../core/projects/rules.js';
import type { TiledProject } from '../core/projects/tiles.js';
import { projectPath } from '../core/urls.js';
import { TopicList } from './topic-list.js';

/** A project tile's participation status: running (time left, progress), upcoming (from when), or over. */
function TileStatus({ page, project, now }: { page: PageContext; project: TiledProject; now: Date }) {
  const { lang } = page;
  const group = projectGroup(project, now);
  if (group === 'active') {
    const percent = moduleRunningProgress(project, now) ?? 0;
    return (
      <div>
        {project.activeEnd && <p>{timeRemaining(project.activeEnd, { lang, timeZone: page.timeZone, now })}</p>}
        <progress class="progress" max={100} value={percent} aria-label={t(lang, 'Progress')}>
          {`${percent}%`}
        </progress>
      </div>
    );
  }
  if (group === 'future' && project.start) return <p>{t(lang, 'Participation: from %(date)s', { date: formatDate(project.start, lang, page.timeZone) })}</p>;
  if (group === 'past') return <p>{t(lang, 'Participation ended. Read result.')}</p>;
  return null;
}

/** A project tile; its name is a heading one level below the list's (`level` 2 under the start page's h1). */
export function ProjectTile({ page, project, now, level = 3 }: { page: PageContext; project: TiledProject & { tileSrcset?: string }; now: Date; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const { lang } = page;
  const url = projectPath(project.organisationSlug, project.slug);
  const running = projectGroup(project, now) === 'active';
  return (
    <li class="tile">
      {project.tileImage && (
        <img class="tile-image" src={`/media/${project.tileImage}`} srcset={project.tileSrcset} sizes="(min-width: 40rem) 20rem, 100vw" alt={project.tileImageAltText} width={400} height={225} loading="lazy" />
      )}
      {project.access !== 'PUBLIC' && <span class="badge">{project.access === 'PRIVATE' ? t(lang, 'private') : t(lang, 'semi-public')}</span>}
      <Heading>
        <a href={url}>{project.name}</a>
      </Heading>
      <p>{project.description}</p>
      <TopicList lang={lang} topics={project.topics} />
      <TileStatus page={page} project={project} now={now} />
      <p>
        <a class="btn" href={url} aria-label={`${running ? t(lang, 'JOIN IN') : t(lang, 'READ')}: ${project.name}`}>
          {running ? t(lang, 'JOIN IN') : t(lang, 'READ')}
        </a>
      </p>
    </li>
  );
}
