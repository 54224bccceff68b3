import { Type, type Static } from 'typebox';
import { ideaReferenceNumber } from '../../core/urls.js';
import type { Lang } from '../../i18n/index.js';
import { formatDate } from '../../i18n/dates.js';
import { stripTags } from '../../text/html.js';
import { contentTypeId } from '../../core/contenttypes/registry.js';
import type { IdeaRow } from '../idealike/queries.js';
import { CustomAnswerSchema, serializeAnswer } from '../customfields/serialize.js';
import { canChangeIdea, canCommentIdea, canDeleteIdea, canRateIdea, type IdeaRuleContext } from '../idealike/rules.js';
import { IDEA_KIND } from './idea-kind.js';

const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

/** The IdeaSerializer's fields, in its order. */
export const Idea = Type.Object({
  pk: Type.Integer(),
  name: Type.String(),
  description: Type.String({ description: 'Plain text (HTML tags stripped)' }),
  creator: Type.String({ description: 'Username of the creator' }),
  created: Type.String({ description: 'Localised date, e.g. "July 1, 2022" / "1. Juli 2022"' }),
  reference_number: Type.String({ description: '<year>-<pk, 5 digits>' }),
  image: Type.Union([Type.String(), Type.Null()]),
  comment_count: Type.Integer({ description: 'Comments and their direct replies' }),
  positive_rating_count: Type.Integer(),
  negative_rating_count: Type.Integer(),
  labels: Type.Array(Ref),
  category: Type.Union([Ref, Type.Null()]),
  content_type: Type.Integer(),
  user_rating: Type.Union([Type.Object({ id: Type.Integer(), value: Type.Integer() }), Type.Null()]),
  has_rating_permission: Type.Boolean(),
  has_commenting_permission: Type.Boolean(),
  has_changing_permission: Type.Boolean(),
  has_deleting_permission: Type.Boolean(),
  custom_fields: Type.Array(CustomAnswerSchema, { description: "The answers to the module's own questions, in their order (every question, '' and null where none was given); send them as custom_<id>" }),
});
export type Idea = Static<typeof Idea>;

interface IdeaSerializeContext {
  lang: Lang;
  timeZone: string;
  rules: IdeaRuleContext;
  /** Turns a media-relative path into an absolute URL. */
  mediaUrl: (path: string) => string;
}

/** "<year>-<pk:05d>", the idea's reference number and URL key. */

export function serializeIdea(idea: IdeaRow, ctx: IdeaSerializeContext): Idea {
  return {
    pk: idea.id,
    name: idea.name,
    description: stripTags(idea.description),
    creator: idea.creatorName,
    created: formatDate(idea.created, ctx.lang, ctx.timeZone),
    reference_number: ideaReferenceNumber(idea.created, idea.id),
    image: idea.image ? ctx.mediaUrl(idea.image) : null,
    comment_count: idea.commentCount,
    positive_rating_count: idea.positiveRatingCount,
    negative_rating_count: idea.negativeRatingCount,
    labels: idea.labels,
    category: idea.category,
    content_type: contentTypeId(IDEA_KIND.kind),
    user_rating: idea.userRating,
    has_rating_permission: canRateIdea(ctx.rules, IDEA_KIND.kind),
    has_commenting_permission: canCommentIdea(ctx.rules, IDEA_KIND.kind),
    has_changing_permission: canChangeIdea(ctx.rules, idea, IDEA_KIND.kind),
    has_deleting_permission: canDeleteIdea(ctx.rules, idea, IDEA_KIND.kind),
    custom_fields: idea.answers.map(serializeAnswer),
  };
}
