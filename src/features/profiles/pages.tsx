import { formatDate } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { Layout } from '../../web/layout.js';
import { avatarUrl } from '../accounts/settings.js';
import type { Profile } from './queries.js';

export function ProfilePage({ page, profile }: { page: PageContext; profile: Profile }) {
  const { lang } = page;
  return (
    <Layout page={page} title={profile.username}>
      <div class="profile-head">
        <img class="avatar" src={avatarUrl(profile)} alt="" width={170} height={170} />
        <div>
          <h1>{profile.username}</h1>
          <p>
            {t(lang, 'Since')} {formatDate(profile.dateJoined, lang, page.timeZone)}
          </p>
        </div>
      </div>
      {profile.bio && (
        <section aria-labelledby="bio-heading">
          <h2 id="bio-heading">{t(lang, 'Biography')}</h2>
          <p>{profile.bio}</p>
        </section>
      )}
    </Layout>
  );
}
