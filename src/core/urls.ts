/**
 * Page and API paths of the platform's objects, in one place (the reference's get_absolute_url
 * and reverse()). All paths are relative; make them absolute with http/urls.absoluteUrl.
 */

/** An idea's reference number: "<year>-<pk zero-padded to 5>" (the year of creation, UTC). */
export const ideaReferenceNumber = (created: Date, id: number) => `${created.getUTCFullYear()}-${String(id).padStart(5, '0')}`;

/** `/<org_slug>/ideas/<year>-<pk:05d>/` */
export const ideaPath = (orgSlug: string, created: Date, id: number, segment = 'ideas') => `/${orgSlug}/${segment}/${ideaReferenceNumber(created, id)}/`;

/** The URL segments of the idea-like kinds' pages: `/<org_slug>/mapideas/…` and `/<org_slug>/budgeting/…` (adhocracy+'s). */
export const ITEM_SEGMENTS = { idea: 'ideas', mapidea: 'mapideas', proposal: 'budgeting' } as const;

/** `/<org_slug>/projects/<project_slug>/` */
export const projectPath = (orgSlug: string, projectSlug: string) => `/${orgSlug}/projects/${projectSlug}/`;

/** The export page of a module (§B16) and, with a file name, one download (`ideas.xlsx`, `comments.csv`, …); linked from the dashboard, the module page and the moderation page. */
export const moduleExportPath = (org: string, moduleSlug: string, file = '') => `/${org}/dashboard/modules/${moduleSlug}/export/${file}`;

/** `/<org_slug>/projects/module/<module_slug>/`: where polls, chapters and paragraphs live. */
export const modulePath = (orgSlug: string, moduleSlug: string) => `/${orgSlug}/projects/module/${moduleSlug}/`;

/** `/profile/<username>/` */
export const profilePath = (username: string) => `/profile/${encodeURIComponent(username)}/`;

/** A comment's URL: its thread object's URL with `?comment=<id>` (a reply uses the root object's URL). */
export const commentPath = (objectPath: string, commentId: number) => `${objectPath.split('?')[0]}?comment=${commentId}`;

/** The moderator feedback list of a comment (route `moderatorfeedback-list`). */
export const feedbackListPath = (commentId: number) => `/api/comments/${commentId}/moderatorfeedback/`;

/** The moderation dashboard page of a project's comments. */
export const moderationDetailPath = (projectSlug: string) => `/userdashboard/moderation/detail/${projectSlug}/`;

