import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { formatDate } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { Layout } from '../../web/layout.js';
import { avatarUrl } from '../../core/users/avatars.js';
import { loadProfile, type Profile } from '../../core/users/profiles.js';

const ProfileParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 60, pattern: '^[^/]+$' }) });

/** A user's public profile page; unknown users are the shared HTML 404. */
export async function profilePages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get('/profile/:username/', pageRoute({ params: ProfileParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const profile = await loadProfile(db, request.params.username);
    if (!profile) throw notFound();
    return sendPage(reply, ProfilePage({ page, profile }));
  });
}

/** The profile's links as adhocracy+ showed them: the homepage (web addresses only), Twitter and Facebook by handle. */
function profileLinks(profile: Profile): { label: string; href: string }[] {
  const links: { label: string; href: string }[] = [];
  if (/^https?:\/\//i.test(profile.homepage)) links.push({ label: profile.homepage, href: profile.homepage });
  if (profile.twitterHandle) links.push({ label: `Twitter: @${profile.twitterHandle}`, href: `https://twitter.com/${encodeURIComponent(profile.twitterHandle)}` });
  if (profile.facebookHandle) links.push({ label: `Facebook: ${profile.facebookHandle}`, href: `https://www.facebook.com/${encodeURIComponent(profile.facebookHandle)}` });
  return links;
}

function ProfilePage({ page, profile }: { page: PageContext; profile: Profile }) {
  const { lang } = page;
  const links = profileLinks(profile);
  return (
    <Layout page={page} title={profile.username}>
      <div class="profile-head">
        <img class="avatar" src={avatarUrl(profile)} alt="" width={170} height={170} />
        <div>
          <h1>{profile.username}</h1>
          <p>
            {t(lang, 'Since')} {formatDate(profile.dateJoined, lang, page.timeZone)}
          </p>
          {links.length > 0 && (
            <ul class="profile-links">
              {links.map((link) => (
                <li>
                  <a href={link.href} rel="nofollow noopener">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {profile.bio && (
        <section aria-labelledby="bio-heading">
          <h2 id="bio-heading">{t(lang, 'Biography')}</h2>
          <p class="pre-line">{profile.bio}</p>
        </section>
      )}
    </Layout>
  );
}
