import qrcode from 'qrcode-generator';
import { t, type Lang } from '../../i18n/index.js';
import { CsrfField } from '../../web/layout.js';
import type { PageContext } from '../../web/context.js';
import { Select, TextArea } from '../../web/controls.js';
import type { FieldErrors } from '../../http/errors.js';
import type { PageLinks } from '../../http/pagination.js';
import { viewerValue } from '../../web/page-keeping.js';
import { Pager } from '../../web/pager.js';
import type { QuestionLikes, QuestionRow } from './queries.js';
import { isOnScreen, QUESTION_MAX } from './rules.js';

/** The event's paths. */
export const eventPath = (org: string, slug: string) => `/${org}/interactiveevents/${slug}/`;
export const presentationPath = (org: string, slug: string) => `/${org}/interactiveevents/present/module/${slug}/`;
const liveStreamPath = (moduleId: number) => `/api/modules/${moduleId}/interactiveevents/live/`;

/** The ref of the live position in a kept event page (web/page-keeping.ts `viewerValue`: read with each request's version and likes). */
export const LIVE_POSITION_REF = 'live-position';

/** The attributes /static/live.js reads: the stream, the position the page's data was read at. */
const liveAttributes = (page: PageContext, moduleId: number, lastEventId: string) => ({
  'data-live-stream': liveStreamPath(moduleId),
  'data-live-last': viewerValue(page, LIVE_POSITION_REF, lastEventId),
});

/** The ref of a question's like count in a kept event page, before its id (its like state's refs follow `likeValues`). */
const LIKES_REF = 'likes/';

/**
 * What a question's like shows, by ref (web/page-keeping.ts `viewerValue`: a kept page gets them put
 * in at sending, for that request's viewer): its count, whether the viewer liked it (aria-pressed),
 * and the value its like form sends.
 */
const likeValues = (id: number | string, likes: number, liked: boolean): Record<string, string> => ({
  [`${LIKES_REF}${id}`]: String(likes),
  [`liked/${id}`]: liked ? 'true' : 'false',
  [`like-value/${id}`]: liked ? 'false' : 'true',
});

/** The like values (`likeValues`) of questions' likes as read (count and whether the viewer liked each, by question id). */
export const likeValuesOf = (likes: QuestionLikes): Record<string, string> =>
  Object.assign({}, ...Object.entries(likes).map(([id, [count, liked]]) => likeValues(id, count, liked))) as Record<string, string>;

/** The questions whose like counts a kept page's viewer refs name (`LIKES_REF`), by id. */
export const likedQuestionIds = (refs: string[]): number[] => refs.flatMap((ref) => (ref.startsWith(LIKES_REF) ? [Number(ref.slice(LIKES_REF.length))] : []));

/** A QR code as an SVG drawn on the server (no script, prints sharp on a projector). */
function qrSvg(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 8, margin: 2, scalable: true });
}

/** A question as one item of a list shows it: a stored one, or the template's blank (`id` TEMPLATE_ID). */
type ItemQuestion = Pick<QuestionRow, 'text' | 'category' | 'likes' | 'sessionLike' | 'isAnswered' | 'isOnShortlist' | 'isHidden' | 'isLive'> & { id: number | string };

/** What live.js puts a question's id in place of, in the template's ids, actions and labels. */
const TEMPLATE_ID = '__id__';

/** The badges a question has (`all`: every one, for the template; live.js drops the ones a question lacks by `data-badge`). */
const Badges = ({ lang, q, all = false }: { lang: Lang; q: ItemQuestion; all?: boolean }) => (
  <>
    {(all || q.category) && <span class="badge" data-badge="category">{q.category}</span>} {(all || isOnScreen(q)) && <span class="badge badge-success" data-badge="live">{t(lang, 'On screen')}</span>}{' '}
    {(all || q.isOnShortlist) && <span class="badge badge-info" data-badge="shortlist">{t(lang, 'Shortlist')}</span>} {(all || q.isAnswered) && <span class="badge" data-badge="answered">{t(lang, 'Answered')}</span>}{' '}
    {(all || q.isHidden) && <span class="badge badge-danger" data-badge="hidden">{t(lang, 'Hidden')}</span>}
  </>
);

const TOGGLES: { flag: 'is_hidden' | 'is_answered' | 'is_on_shortlist' | 'is_live'; key: 'isHidden' | 'isAnswered' | 'isOnShortlist' | 'isLive'; on: string; off: string }[] = [
  { flag: 'is_live', key: 'isLive', on: 'Show on screen', off: 'Remove from screen' },
  { flag: 'is_on_shortlist', key: 'isOnShortlist', on: 'Add to shortlist', off: 'Remove from shortlist' },
  { flag: 'is_answered', key: 'isAnswered', on: 'Mark as answered', off: 'Mark as not answered' },
  { flag: 'is_hidden', key: 'isHidden', on: 'Hide', off: 'Show again' },
];

function QuestionItem({ page, q, base, mayLike, moderator, template = false }: { page: PageContext; q: ItemQuestion; base: string; mayLike: boolean; moderator: boolean; template?: boolean }) {
  const { lang } = page;
  const values = likeValues(q.id, q.likes, q.sessionLike);
  // A stored question's likes are the viewer's (put in at sending in a kept page); the template's stay blank.
  const like = (name: 'likes/' | 'liked/' | 'like-value/') => (typeof q.id === 'number' ? viewerValue(page, `${name}${q.id}`, values[`${name}${q.id}`]) : values[`${name}${q.id}`]);
  return (
    <li id={`question-${q.id}`} class={`live-question${q.isHidden ? ' is-hidden' : ''}`}>
      <p class="live-question-text">{q.isHidden ? <s>{q.text}</s> : q.text}</p>
      <p class="meta">
        <Badges lang={lang} q={q} all={template} />{' '}
        <span>
          {t(lang, 'Likes')}: <span data-likes-for={String(q.id)}>{like(LIKES_REF)}</span>
        </span>
      </p>
      <div class="actions">
        {mayLike && (
          <form method="post" action={`${base}questions/${q.id}/like/`} class="inline-form" data-live-form="">
            <CsrfField page={page} />
            <input type="hidden" name="value" value={like('like-value/')} />
            {/* A toggle: its name stays (what the label says is what is read), aria-pressed and the outline say whether it is on (in a kept page a marker, put in at sending as 'true' or 'false'). */}
            <button type="submit" class="like-button" aria-pressed={like('liked/') as 'true' | 'false'} aria-label={t(lang, 'Like question %(id)s', { id: q.id })}>
              {t(lang, 'Like')}
            </button>
          </form>
        )}
        {moderator &&
          TOGGLES.map((toggle) => (
            <form method="post" action={`${base}questions/${q.id}/flags/`} class="inline-form" data-live-form="">
              <CsrfField page={page} />
              <input type="hidden" name="flag" value={toggle.flag} />
              <input type="hidden" name="value" value={q[toggle.key] ? 'false' : 'true'} />
              <button type="submit" aria-label={`${t(lang, q[toggle.key] ? toggle.off : toggle.on)}: ${t(lang, 'question %(id)s', { id: q.id })}`}>
                {t(lang, q[toggle.key] ? toggle.off : toggle.on)}
              </button>
            </form>
          ))}
      </div>
    </li>
  );
}

interface EventPageData {
  org: string;
  module: { id: number; slug: string; name: string; description: string | null };
  /** A page of the open questions, or of the answered ones (`showAnswered`). */
  questions: QuestionRow[];
  open: number;
  answered: number;
  showAnswered: boolean;
  pager: PageLinks;
  affiliations: { id: number; name: string }[];
  statistics: { name: string | null; asked: number; answered: number }[] | null;
  media: { liveStream: string; eventImage: string | null };
  mayAsk: boolean;
  mayLike: boolean;
  moderator: boolean;
  lastEventId: string;
  /** The highest id among the questions counted (live.js: a question above it is new to this page). */
  lastId: number;
  form: { values: Record<string, string>; errors: FieldErrors };
}

const BLANK_QUESTION: ItemQuestion = { id: TEMPLATE_ID, text: '', category: '', likes: 0, sessionLike: false, isAnswered: false, isOnShortlist: false, isHidden: false, isLive: false };

/**
 * One open question as a participant's list shows it, blank: live.js fills a copy from a `question`
 * event (text and affiliation by textContent, the id into ids, actions and labels, the badges it
 * has) to show a new question, or takes its badges for a changed one, without fetching anything.
 * Moderators get none (their items have controls: they fetch the question's fragment).
 */
const QuestionTemplate = ({ page, base, data }: { page: PageContext; base: string; data: EventPageData }) => (
  <template id="question-template" data-id-token={TEMPLATE_ID}>
    <QuestionItem page={page} q={BLANK_QUESTION} base={base} mayLike={data.mayLike} moderator={false} template />
  </template>
);

/** A page of questions with their pager. */
function QuestionList({ page, data, base }: { page: PageContext; data: EventPageData; base: string }) {
  // The open questions' list takes a changed question from its fragment (live.js); the first page takes new ones at its top.
  const live = data.showAnswered ? {} : { 'data-live-questions': `${base}questions/`, ...(data.pager.previous === null ? { 'data-live-new': '' } : {}) };
  return (
    <>
      <ul class="live-questions" {...live}>
        {data.questions.map((q) => (
          <QuestionItem page={page} q={q} base={base} mayLike={data.mayLike} moderator={data.moderator} />
        ))}
      </ul>
      <Pager lang={page.lang} pager={data.pager} />
    </>
  );
}

const OpenHeading = ({ lang, count }: { lang: Lang; count: number }) => <h2 id="questions-heading">{t(lang, 'Questions (%(count)s)', { count })}</h2>;
const AnsweredHeading = ({ lang, count }: { lang: Lang; count: number }) => <h2 id="answered-heading">{t(lang, 'Answered questions (%(count)s)', { count })}</h2>;

/**
 * One question as the open questions' list shows it to the viewer, with the headings' counts
 * (live.js swaps them in by id): what a
 * page fetches when its live stream tells of a question, instead of the whole page. No `<li>` when
 * the question is not in the viewer's open list (answered, or hidden from them).
 */
export function QuestionFragment({ page, q, counts, base, mayLike, moderator }: { page: PageContext; q: QuestionRow | null; counts: { open: number; answered: number }; base: string; mayLike: boolean; moderator: boolean }) {
  return (
    <div>
      <OpenHeading lang={page.lang} count={counts.open} />
      <AnsweredHeading lang={page.lang} count={counts.answered} />
      <ul>{q && <QuestionItem page={page} q={q} base={base} mayLike={mayLike} moderator={moderator} />}</ul>
    </div>
  );
}

/**
 * The event page: the live stream link, the form to ask, a page of the open questions (newest
 * first) with the answered ones folded behind a link (or, with `?answered=1`, a page of the answered
 * ones); the moderator's toggles and statistics.
 */
export function EventPage({ page, data }: { page: PageContext; data: EventPageData }) {
  const { lang } = page;
  const base = eventPath(data.org, data.module.slug);
  return (
    <div class="live-event" {...liveAttributes(page, data.module.id, data.lastEventId)}>
      {data.media.eventImage && <img class="event-image" src={data.media.eventImage} alt="" />}
      {data.media.liveStream && (
        <p>
          <a class="btn btn-secondary" href={data.media.liveStream} rel="noopener noreferrer">
            {t(lang, 'Watch the live stream')}
          </a>
        </p>
      )}
      {data.moderator && (
        <p>
          <a class="btn btn-secondary" href={presentationPath(data.org, data.module.slug)}>
            {t(lang, 'Presentation screen')}
          </a>
        </p>
      )}
      {data.mayAsk ? (
        <section aria-labelledby="ask-heading">
          <h2 id="ask-heading">{t(lang, 'Ask a question')}</h2>
          <form method="post" action={`${base}questions/`}>
            <CsrfField page={page} />
            {data.affiliations.length > 0 && (
              <Select
                name="category"
                label={t(lang, 'Affiliation')}
                required
                value={data.form.values.category}
                errors={data.form.errors.category}
                choices={[{ value: '', label: t(lang, 'Choose your affiliation') }, ...data.affiliations.map((a) => ({ value: String(a.id), label: a.name }))]}
              />
            )}
            <TextArea name="text" label={t(lang, 'Question')} required maxLength={QUESTION_MAX} value={data.form.values.text} errors={data.form.errors.text} />
            <button type="submit" class="btn btn-primary">
              {t(lang, 'Send question')}
            </button>
          </form>
        </section>
      ) : (
        <p class="help">{t(lang, 'Questions can be asked while the event runs.')}</p>
      )}
      <div data-live-region="">
        {/* A participant's page shows question events itself (live.js): it knows which questions it counted. */}
        <section aria-labelledby="questions-heading" data-last-question={data.moderator ? undefined : String(data.lastId)}>
          <OpenHeading lang={lang} count={data.open} />
          {data.showAnswered ? (
            <p>
              <a href={base}>{t(lang, 'Show the open questions')}</a>
            </p>
          ) : (
            <>
              {!data.questions.length && <p data-live-empty="">{t(lang, 'No questions yet.')}</p>}
              <QuestionList page={page} data={data} base={base} />
              {!data.moderator && <QuestionTemplate page={page} base={base} data={data} />}
            </>
          )}
        </section>
        {/* Hidden while there are none: live.js shows it when a question is answered. */}
        <section aria-labelledby="answered-heading" hidden={data.answered === 0}>
          <AnsweredHeading lang={lang} count={data.answered} />
          {data.showAnswered ? (
            <QuestionList page={page} data={data} base={base} />
          ) : (
            <p>
              <a href={`${base}?answered=1`}>{t(lang, 'Show the answered questions')}</a>
            </p>
          )}
        </section>
        {data.statistics && (
          <section aria-labelledby="statistics-heading">
            <h2 id="statistics-heading">{t(lang, 'Statistics')}</h2>
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">{t(lang, 'Affiliation')}</th>
                  <th scope="col">{t(lang, 'Questions')}</th>
                  <th scope="col">{t(lang, 'Answered')}</th>
                  <th scope="col">{t(lang, 'Answered (%)')}</th>
                </tr>
              </thead>
              <tbody>
                {data.statistics.map((s) => (
                  <tr>
                    <th scope="row">{s.name ?? t(lang, 'No affiliation')}</th>
                    <td>{s.asked}</td>
                    <td>{s.answered}</td>
                    <td>{s.asked ? Math.round((100 * s.answered) / s.asked) : 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </div>
    </div>
  );
}

/** The projector's screen: the questions on screen in large type, the QR code to the event page. */
export function PresentationScreen({ page, data }: { page: PageContext; data: { module: { id: number; name: string }; projectName: string; questions: QuestionRow[]; eventUrl: string; lastEventId: string } }) {
  const { lang } = page;
  return (
    <div class="presentation" {...liveAttributes(page, data.module.id, data.lastEventId)}>
      <div data-live-region="">
        {data.questions.length ? (
          <ul class="presentation-questions">
            {data.questions.map((q) => (
              <li id={`question-${q.id}`}>
                <p class="presentation-question">{q.text}</p>
                <p class="meta">
                  {q.category && <span class="badge">{q.category}</span>} {t(lang, 'Likes')}: <span data-likes-for={String(q.id)}>{q.likes}</span>
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p class="presentation-question">{t(lang, 'No question on screen.')}</p>
        )}
      </div>
      <figure class="presentation-qr">
        <div role="img" aria-label={t(lang, 'QR code of the event page')} dangerouslySetInnerHTML={{ __html: qrSvg(data.eventUrl) }} />
        <figcaption>
          {t(lang, 'Ask your question:')} <a href={data.eventUrl}>{data.eventUrl}</a>
        </figcaption>
      </figure>
      <p class="meta">{data.projectName}</p>
    </div>
  );
}
