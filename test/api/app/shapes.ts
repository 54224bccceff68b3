/** What each screen of the app reads from the API, with its type (platform-facts §3, issue 12). */
import type { Shape } from './client.js';

const NamedRef: Shape = { id: 'integer', name: 'string' };

/** Explore list and project screen (AppProjectSerializer). */
export const AppProject: Shape = {
  pk: 'integer',
  slug: 'string',
  point: { nullable: { type: 'string', geometry: { type: 'string', coordinates: 'array' }, properties: { strname: 'string|null', hsnr: 'string|null', plz: 'string|null' } } },
  name: 'string',
  url: 'string',
  description: 'string',
  information: 'string',
  result: 'string',
  organisation: 'string',
  organisation_logo: 'string|null',
  published_modules: 'array',
  access: 'string',
  image: 'url|null',
  single_idea_collection_module: 'integer|false',
  single_poll_module: 'integer|false',
  participation_time_display: 'string',
  module_running_progress: 'integer|null',
  has_contact_info: 'boolean',
  contact_name: 'string',
  contact_address_text: 'string',
  contact_phone: 'string',
  contact_email: 'string',
  contact_url: 'string',
};

const AppPhase: Shape = { name: 'string', description: 'string', type: 'string', start_date: 'string|null', end_date: 'string|null' };

/** Module screen (AppModuleSerializer). */
export const AppModule: Shape = {
  pk: 'integer',
  active_phase: { nullable: AppPhase },
  future_phases: { orNull: [AppPhase] },
  past_phases: { orNull: [AppPhase] },
  labels: { orFalse: [NamedRef] },
  categories: { orFalse: [NamedRef] },
  has_idea_adding_permission: 'boolean',
};

/** Ideas list and idea screen (IdeaSerializer). */
export const Idea: Shape = {
  pk: 'integer',
  name: 'string',
  description: 'string',
  creator: 'string',
  created: 'string',
  reference_number: 'string',
  image: 'url|null',
  comment_count: 'integer',
  positive_rating_count: 'integer',
  negative_rating_count: 'integer',
  labels: [NamedRef],
  category: { nullable: NamedRef },
  content_type: 'integer',
  user_rating: { nullable: { id: 'integer', value: 'integer' } },
  has_rating_permission: 'boolean',
  has_commenting_permission: 'boolean',
  has_changing_permission: 'boolean',
  has_deleting_permission: 'boolean',
};

/** Rating buttons (RatingSerializer). */
export const Rating: Shape = {
  id: 'integer',
  value: 'integer',
  meta_info: {
    positive_ratings_on_same_object: 'integer',
    negative_ratings_on_same_object: 'integer',
    user_rating_on_same_object_value: 'integer|null',
    user_rating_on_same_object_id: 'integer|null',
  },
};

/** One comment as the comment list, its menu and its rating buttons read it. */
const commentFields: Shape = {
  id: 'integer',
  comment: 'string',
  comment_categories: {},
  created: 'string',
  modified: 'string|null',
  content_type: 'integer',
  object_pk: 'integer',
  comment_content_type: 'integer',
  is_removed: 'boolean',
  is_censored: 'boolean',
  is_blocked: 'boolean',
  is_moderator_marked: 'boolean',
  is_deleted: 'boolean',
  user_name: 'string',
  user_profile_url: 'string',
  user_image: 'url|null',
  user_image_fallback: 'url|null',
  author_is_moderator: 'boolean',
  ratings: { positive_ratings: 'integer', negative_ratings: 'integer', current_user_rating_value: 'integer|null', current_user_rating_id: 'integer|null' },
  user_info: { has_rating_permission: 'boolean', has_changing_permission: 'boolean', has_deleting_permission: 'boolean', is_users_own_comment: 'boolean' },
};
export const Reply: Shape = commentFields;
export const Comment: Shape = { ...commentFields, child_comments: [Reply] };
export const CommentPage: Shape = { count: 'integer', next: 'url|null', previous: 'url|null', results: [Comment], comment_count: 'integer' };

/** Report dialog (ReportSerializer). */
export const Report: Shape = { content_type: 'integer', object_pk: 'integer', description: 'string', username: 'string', created: 'string' };

/** Settings screens (AccountSerializer). */
export const Account: Shape = { pk: 'integer', username: 'string', user_image: 'url|null', user_image_fallback: 'png-url', language: 'string' };

/** Profile screen (UserSerializer). */
export const PublicUser: Shape = { pk: 'integer', username: 'string', user_image: 'url|null', user_image_fallback: 'png-url', is_self: 'boolean' };
