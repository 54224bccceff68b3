import { type Lang, t } from '../i18n/index.js';
import { isProjectTopic, PROJECT_TOPICS } from '../core/projects/topics.js';

/** A project's topics (§B8) as badges: on the project page under its description, and on its tile. */
export function TopicList({ lang, topics }: { lang: Lang; topics: string[] }) {
  const known = topics.filter(isProjectTopic);
  if (!known.length) return null;
  return (
    <ul class="topics" aria-label={t(lang, 'Topics')}>
      {known.map((code) => (
        <li class="badge">{t(lang, PROJECT_TOPICS[code])}</li>
      ))}
    </ul>
  );
}
