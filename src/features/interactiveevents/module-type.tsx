import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { categories } from '../../db/schema/index.js';
import { liveEventMedia, liveQuestions } from './schema.js';
import type { FieldErrors } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { SHARED_COMPONENTS, type ModuleComponent } from '../../core/modules/registry.js';
import { Checkbox, Input } from '../../web/controls.js';
import { field } from '../../web/forms.js';
import { contentPart, type DashboardComponentForm, mediaPathsOf, type ModuleType } from '../moduletypes/contract.js';
import { interactiveEventPages } from './pages.js';
import { affiliationCounts, loadAffiliations, loadMedia } from './queries.js';
import { IE_BLUEPRINT, interactiveEventRoutes } from './routes.js';
import { canModerateEvent, canViewEvent } from './rules.js';
import { eventPath, presentationPath } from './views.js';
import { liveEventFixtures } from './fixtures.js';
import { withoutAuthors } from '../moduletypes/items.js';
import { QUESTION_EXPORT } from './export.js';

/**
 * Interactive Event (IE, adhocracy+'s interactiveevents): the audience of an event asks questions
 * without an account and likes them, the moderator puts one on the projector's screen. Affiliations
 * (the module's categories) are set in the dashboard; at least one is needed to publish.
 */

const AFFILIATION_MAX = 120;
const NEW_ROWS = 3;

const affiliationsComponent: ModuleComponent = {
  key: 'affiliations',
  label: { en: 'Affiliations', de: 'Zugehörigkeiten' },
  missing: (module) => (Number(module.facts?.affiliations ?? 0) > 0 ? [] : [{ field: { en: 'At least one affiliation', de: 'Mindestens eine Zugehörigkeit' } }]),
};
const mediaComponent: ModuleComponent = { key: 'extra_fields', label: { en: 'Media', de: 'Medien' } };

/** The dashboard's "Affiliations": rename, delete, add (names up to 120 characters). */
const affiliationsForm: DashboardComponentForm = {
  values: async (db, module) => Object.fromEntries((await loadAffiliations(db, module.id)).map((a) => [`affiliation-${a.id}`, a.name])),
  Fields: ({ page, values, errors }) => {
    const ids = Object.keys(values)
      .filter((k) => /^affiliation-\d+$/.test(k))
      .map((k) => Number(k.slice('affiliation-'.length)));
    return (
      <>
        <p class="help">{t(page.lang, 'Participants choose their affiliation when they ask a question; the statistics count the questions per affiliation. At least one is needed to publish.')}</p>
        {ids.map((id, i) => (
          <div class="term-row">
            <Input name={`affiliation-${id}`} label={t(page.lang, 'Affiliation %(n)s', { n: i + 1 })} value={values[`affiliation-${id}`]} maxLength={AFFILIATION_MAX} errors={errors[`affiliation-${id}`]} />
            <Checkbox name={`delete-${id}`} label={t(page.lang, 'Delete %(name)s', { name: values[`affiliation-${id}`] ?? '' })} checked={values[`delete-${id}`] === 'on'} />
          </div>
        ))}
        {Array.from({ length: NEW_ROWS }, (_, n) => (
          <Input name={`new-${n}`} label={t(page.lang, 'New affiliation')} value={values[`new-${n}`]} maxLength={AFFILIATION_MAX} errors={errors[`new-${n}`]} />
        ))}
      </>
    );
  },
  save: async (db, module, body, lang) => {
    const existing = await loadAffiliations(db, module.id);
    const values: Record<string, string> = {};
    const errors: FieldErrors = {};
    const check = (name: string, value: string) => {
      values[name] = value;
      if (value.length > AFFILIATION_MAX) errors[name] = [t(lang, 'Ensure this field has no more than %(max)s characters.', { max: AFFILIATION_MAX })];
    };
    const rename: { id: number; name: string }[] = [];
    const remove: number[] = [];
    for (const a of existing) {
      const name = field(body, `affiliation-${a.id}`) || a.name;
      check(`affiliation-${a.id}`, name);
      if (field(body, `delete-${a.id}`) === 'on') {
        values[`delete-${a.id}`] = 'on';
        remove.push(a.id);
      } else if (name !== a.name) rename.push({ id: a.id, name });
    }
    const add: string[] = [];
    for (let n = 0; n < NEW_ROWS; n++) {
      const name = field(body, `new-${n}`);
      check(`new-${n}`, name);
      if (name) add.push(name);
    }
    if (!Object.keys(errors).length) {
      await db.transaction(async (tx) => {
        if (remove.length) await tx.delete(categories).where(and(eq(categories.moduleId, module.id), inArray(categories.id, remove)));
        for (const r of rename) await tx.update(categories).set({ name: r.name }).where(and(eq(categories.id, r.id), eq(categories.moduleId, module.id)));
        if (add.length) await tx.insert(categories).values(add.map((name) => ({ moduleId: module.id, name })));
      });
    }
    return { values, errors };
  },
};

/** The dashboard's "Media": the live stream's address and the event image's address. */
const mediaForm: DashboardComponentForm = {
  values: async (db, module) => {
    const media = await loadMedia(db, module.id);
    return { live_stream: media.liveStream, event_image: media.eventImage ?? '' };
  },
  Fields: ({ page, values, errors }) => (
    <>
      <Input name="live_stream" type="url" label={t(page.lang, 'Live stream (address)')} value={values.live_stream} maxLength={500} errors={errors.live_stream} />
      <Input name="event_image" type="url" label={t(page.lang, 'Event image (address)')} value={values.event_image} maxLength={500} errors={errors.event_image} />
    </>
  ),
  save: async (db, module, body, lang) => {
    const values = { live_stream: field(body, 'live_stream'), event_image: field(body, 'event_image') };
    const errors: FieldErrors = {};
    for (const [name, value] of Object.entries(values)) {
      if (value && (value.length > 500 || !/^(https:\/\/|http:\/\/|\/)[^\s"'<>]+$/.test(value))) errors[name] = [t(lang, 'Enter a valid URL.')];
    }
    if (!Object.keys(errors).length) {
      const set = { liveStream: values.live_stream, eventImage: values.event_image || null, modified: new Date() };
      await db.transaction((tx) => tx.insert(liveEventMedia).values({ moduleId: module.id, ...set }).onConflictDoUpdate({ target: liveEventMedia.moduleId, set }));
    }
    return { values, errors };
  },
};

/** The module page's part: where the event page and, for moderators, the presentation screen are. */
const eventLinks = contentPart({
  load: async (input) => {
    if (input.module.blueprintType !== IE_BLUEPRINT || !canViewEvent(input.context)) return null;
    // Nothing of the questions: the module page is kept under a version without their rows (migration 0054).
    return { org: input.orgSlug, slug: input.module.slug, moderator: canModerateEvent(input.context), media: await loadMedia(input.db, input.module.id) };
  },
  View: ({ page, data }) => (
    <section aria-labelledby="event-heading">
      <h2 id="event-heading">{t(page.lang, 'Interactive event')}</h2>
      {data.media.eventImage && <img class="event-image" src={data.media.eventImage} alt="" />}
      <p>
        <a class="btn btn-primary" href={eventPath(data.org, data.slug)}>
          {t(page.lang, 'Go to event')}
        </a>{' '}
        {data.moderator && (
          <a class="btn btn-secondary" href={presentationPath(data.org, data.slug)}>
            {t(page.lang, 'Presentation screen')}
          </a>
        )}
      </p>
    </section>
  ),
});

async function interactiveEventsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(interactiveEventRoutes);
  await app.register(interactiveEventPages);
}

export const interactiveEvent: ModuleType = {
  blueprintType: IE_BLUEPRINT,
  key: 'interactive-event',
  title: { en: 'Interactive Event', de: 'Interaktive Veranstaltung' },
  description: {
    en: 'The participants of an event can ask their questions online. Other participants can support the question. You as the moderator can sort the questions by support or affiliation.',
    de: 'Die Teilnehmenden einer Veranstaltung können ihre Fragen online stellen. Andere Teilnehmende können die Frage unterstützen. Sie als Moderation können die Fragen nach Unterstützung oder Zugehörigkeit sortieren.',
  },
  offered: true,
  phases: [
    {
      type: 'a4_candy_interactive_events:issue',
      content: 'livequestion',
      features: ['crud', 'like'],
      name: { en: 'Issue phase', de: 'Fragephase' },
      description: { en: 'Add question.', de: 'Fragen stellen.' },
    },
  ],
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases, affiliationsComponent, mediaComponent],
  facts: async (db, moduleIds) => new Map([...(await affiliationCounts(db, moduleIds))].map(([id, n]) => [id, { affiliations: n }])),
  dashboardForms: { affiliations: affiliationsForm, extra_fields: mediaForm },
  tables: ['live_questions', 'live_question_likes', 'live_event_media'],
  tileCount: { one: { en: '%(count)s question', de: '%(count)s Frage' }, many: { en: '%(count)s questions', de: '%(count)s Fragen' } },
  // Live questions are anonymous and take no comments, ratings or reports: a content type for their id and the module counts.
  contentTypes: [
    {
      kind: 'livequestion',
      id: 16,
      appLabel: 'a4_candy_interactive_events',
      model: 'livequestion',
      target: async (db, id) => {
        const [row] = await db.select({ moduleId: liveQuestions.moduleId }).from(liveQuestions).where(eq(liveQuestions.id, id));
        return row ? { moduleId: row.moduleId, creatorId: null } : null;
      },
      inModules: (moduleIds) => sql`select ${liveQuestions.id}, ${liveQuestions.moduleId}, null::integer from ${liveQuestions} where ${liveQuestions.moduleId} in (${moduleIds})`,
      onAuthorDeleted: withoutAuthors,
    },
  ],
  plugin: interactiveEventsPlugin,
  mediaColumns: [liveEventMedia.eventImage],
  content: eventLinks,
  mediaPaths: mediaPathsOf(liveEventMedia, liveEventMedia.moduleId, liveEventMedia.eventImage),
  copySettings: async (tx, from, to) => {
    const [media] = await tx.select().from(liveEventMedia).where(eq(liveEventMedia.moduleId, from));
    if (media) await tx.insert(liveEventMedia).values({ ...media, moduleId: to, modified: new Date() });
  },
  notifications: [],
  exports: [QUESTION_EXPORT],
  fixtures: liveEventFixtures,
};
