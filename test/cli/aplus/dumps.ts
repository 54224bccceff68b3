import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DumpRecord {
  model: string;
  pk: number | string;
  fields: Record<string, unknown>;
}

/** The password hash a4's old test factory gave "password" (20000 iterations, as a user from 2017 has it). */
export const OLD_HASH = 'pbkdf2_sha256$20000$qMYSzezfIiw3$w3A0xY/kOgE8yA4m3RDFItXTqWCV3N7v2CLy2fD8gyw=';

/**
 * A small adhocracy+ installation as `dumpdata` writes it: a user, an organisation, a project with
 * an idea module, an idea (with its a4modules.item), a comment, a reply and a rating, plus a
 * framework model and a model with no home yet. `natural` names users and content types by natural
 * key, as `--natural-foreign` does; otherwise by pk, with the content types in the dump.
 */
export function smallDump(natural = true): DumpRecord[] {
  const user = (name: string, pk: number) => (natural ? [name] : pk);
  const ctype = (app: string, model: string, pk: number) => (natural ? [app, model] : pk);
  return [
    { model: 'contenttypes.contenttype', pk: 30, fields: { app_label: 'a4_candy_ideas', model: 'idea' } },
    { model: 'contenttypes.contenttype', pk: 31, fields: { app_label: 'a4comments', model: 'comment' } },
    { model: 'auth.permission', pk: 1, fields: { name: 'Can add idea', content_type: ctype('a4_candy_ideas', 'idea', 30), codename: 'add_idea' } },
    { model: 'a4comments.comment', pk: 5, fields: { creator: user('anna', 7), content_type: ctype('a4_candy_ideas', 'idea', 30), object_pk: '40', comment: 'Gute Idee', project: 3, created: '2025-03-01T10:00:00Z', is_removed: false, is_censored: false, is_blocked: false, is_moderator_marked: false, is_reviewed: false, comment_categories: '', last_discussed: null, modified: null } },
    { model: 'a4comments.comment', pk: 6, fields: { creator: user('anna', 7), content_type: ctype('a4comments', 'comment', 31), object_pk: '5', comment: 'Antwort', project: 3, created: '2025-03-02T10:00:00Z', is_removed: true, is_censored: false, is_blocked: false, is_moderator_marked: false, is_reviewed: false, comment_categories: '', last_discussed: null, modified: null } },
    { model: 'a4ratings.rating', pk: 9, fields: { creator: user('anna', 7), content_type: ctype('a4_candy_ideas', 'idea', 30), object_pk: 40, value: 1, created: '2025-03-01T11:00:00Z', modified: null } },
    { model: 'a4_candy_users.user', pk: 7, fields: { username: 'anna', email: 'anna@example.org', password: OLD_HASH, is_superuser: false, is_staff: false, is_active: true, date_joined: '2017-05-01T09:00:00Z', last_login: null, language: 'de', bio: 'Hallo', _avatar: 'users/images/missing.png', get_newsletters: true, twitter_handle: '', facebook_handle: '', homepage: '' } },
    { model: 'account.emailaddress', pk: 1, fields: { user: user('anna', 7), email: 'anna@example.org', verified: true, primary: true } },
    { model: 'a4_candy_organisations.organisation', pk: 2, fields: { slug: 'stadt', name: 'Stadt', title: 'Beteiligung', initiators: [user('anna', 7)], language: 'de', imprint: '<p>Impressum</p>', logo: '', image: '' } },
    { model: 'a4projects.project', pk: 3, fields: { slug: 'markt', name: 'Markt', organisation: 2, access: 1, is_draft: false, is_archived: false, point: 'SRID=4326;POINT (13.4 52.5)', moderators: [], participants: [], topics: [], created: '2025-01-01T00:00:00Z' } },
    { model: 'a4modules.module', pk: 4, fields: { slug: 'ideen', name: 'Ideen', project: 3, weight: 1, is_draft: false, blueprint_type: 'BS', description: '' } },
    { model: 'a4phases.phase', pk: 8, fields: { module: 4, type: 'a4_candy_ideas:collect', name: 'Sammeln', description: '', start_date: '2025-01-01T00:00:00Z', end_date: '2035-01-01T00:00:00Z', weight: 0 } },
    { model: 'a4modules.item', pk: 40, fields: { module: 4, creator: user('anna', 7), created: '2025-02-03T10:00:00Z', modified: null, polymorphic_ctype: ctype('a4_candy_ideas', 'idea', 30) } },
    { model: 'a4_candy_ideas.idea', pk: 40, fields: { name: 'Bäume', description: '<p>Mehr Bäume</p>', slug: 'baume', image: '', category: null, labels: [], moderator_status: null, moderator_feedback_text: null } },
    { model: 'a4_candy_offlineevents.offlineevent', pk: 1, fields: { name: 'Treffen', event_type: 'Versammlung', project: 3, date: '2025-04-01T10:00:00Z', slug: 'treffen', description: '<p>Im Rathaus</p>', creator: user('anna', 7), created: '2025-03-01T10:00:00Z', modified: null } },
    { model: 'a4_candy_activities.activity', pk: 41, fields: { slug: 'stand', name: 'Infostand', highlight: 'Samstag 10 Uhr', description: '<p>Am Markt</p>' } },
  ];
}

/** Writes records (or any text) as a dump file in a fresh folder, the folder serving as the (empty) media folder. */
export function writeDump(content: DumpRecord[] | string): { dump: string; media: string } {
  const dir = mkdtempSync(join(tmpdir(), 'allmende-aplus-'));
  const dump = join(dir, 'dump.json');
  writeFileSync(dump, typeof content === 'string' ? content : JSON.stringify(content, null, 1));
  return { dump, media: dir };
}
