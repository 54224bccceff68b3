/** The first-run setup of an empty install (operate/setup). */
export const SETUP_PATH = '/setup/';
export const SETUP_ORGANISATION_PATH = '/setup/organisation/';
/** The notification centre (me/notifications) and the stream behind the bell's live count. */
export const NOTIFICATIONS_PATH = '/userdashboard/notifications/';
export const NOTIFICATIONS_STREAM = '/api/notifications/live/';
/** Paths of the initiator dashboard (§B2, under `/<org>/dashboard/`). */
export const projectListPath = (org: string) => `/${org}/dashboard/projects/`;
export const projectCreatePath = (org: string) => `/${org}/dashboard/projects/create/`;
export const projectComponentPath = (org: string, slug: string, component: string) => `/${org}/dashboard/projects/${slug}/${component}/`;
export const projectActionPath = (org: string, slug: string, action: 'publish' | 'duplicate' | 'delete' | 'blueprints') => `/${org}/dashboard/projects/${slug}/${action}/`;
export const moduleComponentPath = (org: string, moduleSlug: string, component: string) => `/${org}/dashboard/modules/${moduleSlug}/${component}/`;
export { moduleExportPath } from '../core/urls.js';
export const moduleActionPath = (org: string, moduleSlug: string) => `/${org}/dashboard/modules/${moduleSlug}/state/`;

/** The organisation's own dashboard pages (§B2): settings, legal information, newsletters. */
export const organisationSettingsPath = (org: string) => `/${org}/dashboard/settings/`;
export const legalSettingsPath = (org: string) => `/${org}/dashboard/settings/legal-information/`;
export const newsletterListPath = (org: string) => `/${org}/dashboard/communication/newsletters/`;
export const newsletterCreatePath = (org: string) => `/${org}/dashboard/communication/newsletters/create/`;

/** Messages after a change, passed along a redirect as `?done=<key>` (only these texts can appear). */
const DONE_MESSAGES = {
  created: 'Project was created.',
  saved: 'Your changes have been saved.',
  published: 'The project has been published.',
  unpublished: 'The project is a draft again.',
  archived: 'The project was archived.',
  unarchived: 'The project is no longer archived.',
  duplicated: 'Project successfully duplicated.',
  deleted: 'The project was deleted.',
  module_created: 'The module was created.',
  module_added: 'The module is displayed in the project.',
  module_hidden: 'The module is hidden from the project.',
  module_deleted: 'The module was deleted.',
  invited: 'Invitations were sent.',
  removed: 'Removed.',
  added: 'Added.',
  newsletter_sent: 'The newsletter is being sent.',
  legal_saved: 'The legal texts have been saved.',
  event_saved: 'The event has been saved.',
  event_deleted: 'The event has been deleted.',
  summary_made: 'The summary has been made. Read it before you publish it.',
  summary_kept: 'Nothing has changed since the last summary: it is kept.',
  summary_nothing: 'There are no public contributions to summarise yet.',
  summary_published: 'The summary is published.',
  summary_unpublished: 'The summary is no longer published.',
} as const;

export type DoneKey = keyof typeof DONE_MESSAGES;
export const withDone = (path: string, key: DoneKey) => `${path}?done=${key}`;
export const doneMessage = (key: string | undefined) => (key && Object.hasOwn(DONE_MESSAGES, key) ? DONE_MESSAGES[key as DoneKey] : null);
