import { t } from '../i18n/index.js';
import { projectPath } from '../core/urls.js';
import type { PageContext } from './context.js';
import { CsrfField } from './layout.js';

export function FollowForm({ page, project, following, next }: { page: PageContext; project: { organisationSlug: string; slug: string }; following: boolean; next?: string }) {
  const { lang } = page;
  if (!page.user) return null;
  return (
    <form method="post" action={`${projectPath(project.organisationSlug, project.slug)}follow/`} class="inline-form">
      <CsrfField page={page} />
      <input type="hidden" name="follow" value={following ? 'false' : 'true'} />
      {next && <input type="hidden" name="next" value={next} />}
      <button type="submit" aria-pressed={following ? 'true' : 'false'}>
        {following ? t(lang, 'Unfollow') : t(lang, 'Follow')}
      </button>
    </form>
  );
}
