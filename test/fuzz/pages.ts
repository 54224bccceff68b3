/**
 * The page routes of the initiator dashboard, the back-office, invitations and the module
 * dashboard (issue 21), as operations the engine drives like the API's: they are not in the
 * OpenAPI document, so they are listed here with the form fields their handlers read. Path
 * parameters are named for the hints in inputs.ts (`org`, `slug`, `module`, `invite`); slugs that
 * would let a valid request empty the world (delete, duplicate) are written out.
 */
import type { JsonSchema, Operation } from './inputs.js';

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const str = (maxLength = 300): JsonSchema => ({ type: 'string', maxLength });
const oneOf = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
const form = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', properties, required });

const PROJECT_BASIC = form({
  name: str(120),
  description: str(250),
  access: oneOf('PUBLIC', 'SEMIPUBLIC', 'PRIVATE', 'NOBODY'),
  image_copyright: str(120),
  image_alt_text: str(80),
  tile_image_copyright: str(120),
  tile_image_alt_text: str(80),
  image_clear: oneOf('on'),
  administrative_district: oneOf('1', '999', 'x', ''),
});
const PROJECT_INFORMATION = form({ information: str(2000), contact_name: str(120), contact_phone: str(30), contact_email: str(254), contact_url: str(300) });
const PHASES = form({ 'phase-0-name': str(80), 'phase-0-description': str(300), 'phase-0-start': oneOf('2030-01-01T10:00', 'not a date', ''), 'phase-0-end': oneOf('2030-01-10T10:00', '2029-01-01T10:00') });
const QUESTIONS = form({
  'field-1-label': str(210),
  'field-1-kind': oneOf('text', 'choice', 'x'),
  'field-1-choices': str(3000),
  'field-1-weight': oneOf('1', '-1', '99999', 'x', ''),
  'field-1-delete': oneOf('on'),
  'new-label': str(210),
  'new-kind': oneOf('text', 'choice', ''),
  'new-choices': str(3000),
  'new-required': oneOf('on'),
});
const TERMS = form({ 'new-0': str(120), 'new-1': str(120), 'term-1': str(120), 'delete-1': oneOf('on'), alias: str(40), alias_help: str(400) });
const MEMBERS = form({ action: oneOf('invite', 'add', 'remove_member', 'remove_invite', 'other'), add_users: str(500), add_existing: str(200), user_id: oneOf('5', '6', '0', 'x'), invite_id: oneOf('1', '99999999999') });
const NEWSLETTER = form({ sender_name: str(254), sender_email: str(254), project: oneOf('1', '2', '3', 'x'), subject: str(254), body: str(3000) });
const BACKOFFICE_ORG = form({
  action: oneOf('settings', 'add_initiator', 'remove_initiator', 'add_member', 'remove_member', 'other'),
  name: str(120),
  language: oneOf('de', 'en', 'xx'),
  enable_geolocation: oneOf('on'),
  initiator_name: oneOf('user', 'moderator@example.org', 'ghost', 'ｕｓｅｒ'),
  member_name: oneOf('other', 'nobody'),
  user_id: oneOf('5', '6', '0', '-1'),
});

const AREA = oneOf('{"type":"Polygon","coordinates":[[[13,52],[14,52],[14,53],[13,52]]]}', '{"type":"Polygon","coordinates":[[[13,52],[14,52],[14,53],[13,53],[13,52]]]}', 'not json', '[]', '');
const PLACE = form({ name: str(140), category: oneOf('1', '999', 'x', ''), short_code: oneOf('mi', 'mit', ''), area: AREA });
const OFFLINE_EVENT = form({ name: str(130), event_type: str(40), date: oneOf('2030-01-01T10:00', 'not a date', '2030-02-30T10:00', ''), description: str(2000), document_clear: oneOf('on') });
const CONTENT_PAGE = form({ slug: oneOf('help', 'faq', 'imprint', 'Not A Slug', ''), title_en: str(250), title_de: str(250), body_en: str(3000), body_de: str(3000), placement: oneOf('footer', 'menu', 'none', 'x'), weight: oneOf('0', '-1', '99999', 'x', '') });
const START_PAGE = form({ heading_en: str(250), heading_de: str(250), intro_en: str(3000), intro_de: str(3000), image_alt_en: str(200), image_alt_de: str(200), image_deleted: oneOf('on') });
const PLATFORM = form({ name: str(80), address: str(2000), contacts: str(2000), facebook: oneOf('https://facebook.example/city', 'javascript:alert(1)', 'x', ''), twitter: str(300), github: str(300), share_description_en: str(400), share_description_de: str(400), image_deleted: oneOf('on') });
const CONTACT = form({ name: str(120), email: oneOf('someone@example.org', 'x', ''), subject: str(300), message: str(6000), website: oneOf('', 'http://spam.example/') });
const REMARK = form({ remark: str(4100), next: oneOf('/org/', 'https://evil.example/', '//evil.example/') });

const page = (method: 'GET' | 'POST', path: string, bodySchema: JsonSchema | null = null, mediaTypes: string[] = bodySchema ? [FORM] : []): Operation => ({
  method,
  path,
  pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path' as const, required: true })),
  queryParams: [],
  mediaTypes,
  bodySchema,
  page: true,
});

const RESULT = form({ title: str(260), description: str(2000), category: str(130), district: str(130), lat: oneOf('52.5', '91', 'x', ''), lng: oneOf('13.4', ''), start_date: oneOf('2030-01-01', '2030-02-30', ''), end_date: oneOf('2029-01-01', ''), budget_planned: oneOf('100', '-1', 'x', ''), budget_spent: str(12), status: oneOf('1', '2', '999', 'x', ''), progress: oneOf('0', '100', '101', ''), parent: oneOf('1', '999', '') });
const RESULTS = '/{org}/results/project/{slug}';
const PROJECT = '/{org}/dashboard/projects/{slug}';
const MODULE = '/{org}/dashboard/modules/{module}';

export const PAGE_OPERATIONS: Operation[] = [
  page('GET', '/{org}/dashboard/projects/'),
  page('GET', '/{org}/dashboard/projects/create/'),
  page('POST', '/{org}/dashboard/projects/create/', form({ name: str(120), description: str(250), access: oneOf('PUBLIC', 'PRIVATE', 'NOBODY') })),
  page('GET', `${PROJECT}/`),
  ...['basic', 'information', 'result', 'location', 'moderators', 'participants', 'blueprints', 'delete'].map((c) => page('GET', `${PROJECT}/${c}/`)),
  page('POST', `${PROJECT}/basic/`, PROJECT_BASIC, [FORM, MULTIPART]),
  page('POST', `${PROJECT}/information/`, PROJECT_INFORMATION),
  page('POST', `${PROJECT}/result/`, form({ result: str(2000), show_insights: oneOf('on') })),
  page('POST', `${PROJECT}/location/`, form({ point: str(200), administrative_district: str(50), street_name: str(200) })),
  page('POST', `${PROJECT}/moderators/`, MEMBERS),
  page('POST', `${PROJECT}/participants/`, MEMBERS),
  page('POST', `${PROJECT}/publish/`, form({ action: oneOf('publish', 'unpublish', 'archive', 'unarchive', 'x') })),
  page('POST', `${PROJECT}/blueprints/idea-collection/`, form({})),
  page('POST', `${PROJECT}/blueprints/brainstorming/`, form({})),
  page('POST', '/{org}/dashboard/projects/archived/duplicate/', form({})),
  page('POST', '/org/dashboard/projects/archived/delete/', form({})),
  ...['module_basic', 'phases', 'categories', 'labels', 'export'].map((c) => page('GET', `${MODULE}/${c}/`)),
  ...['ideas.csv', 'ideas.xlsx', 'comments.csv'].map((file) => page('GET', `${MODULE}/export/${file}`)),
  page('POST', `${MODULE}/module_basic/`, form({ name: str(512), description: str(512) })),
  page('POST', `${MODULE}/phases/`, PHASES),
  page('POST', `${MODULE}/categories/`, TERMS),
  page('POST', `${MODULE}/labels/`, TERMS),
  page('GET', `${MODULE}/custom_fields/`),
  page('POST', `${MODULE}/custom_fields/`, QUESTIONS),
  page('POST', `${MODULE}/state/`, form({ action: oneOf('add', 'hide', 'delete', 'x') })),
  ...['offlineevents', 'offlineevents/create', 'offlineevents/meeting/update', 'offlineevents/meeting/delete'].map((c) => page('GET', `${PROJECT}/${c}/`)),
  ...['export.csv', 'export.xlsx'].map((file) => page('GET', `${PROJECT}/offlineevents/${file}`)),
  page('POST', `${PROJECT}/offlineevents/create/`, OFFLINE_EVENT, [FORM, MULTIPART]),
  page('POST', `${PROJECT}/offlineevents/meeting/update/`, OFFLINE_EVENT, [FORM, MULTIPART]),
  page('POST', `${PROJECT}/offlineevents/meeting/delete/`, form({})),
  page('GET', '/{org}/offlineevents/meeting/'),
  // Results (issue 39): the world has result 1 in project 1.
  ...['/{org}/results/', '/{org}/results/1/', '/{org}/results/1/update/', '/{org}/results/1/delete/', '/{org}/results/statuses/', `${RESULTS}/`, `${RESULTS}/create/`, `${RESULTS}/import/`, `${RESULTS}/export.csv`].map((p) => page('GET', p)),
  page('POST', `${RESULTS}/create/`, RESULT),
  page('POST', '/{org}/results/1/update/', RESULT),
  page('POST', '/{org}/results/1/entries/', form({ date: oneOf('2030-01-01', '2030-02-30', ''), text: str(4100), status: oneOf('1', '3', '999', ''), progress: oneOf('50', '101', '') })),
  page('POST', '/{org}/results/1/links/', form({ link: oneOf('idea:1', 'proposal:999', 'x:1', 'idea:0'), remove: oneOf('idea:1', 'x') })),
  page('POST', `${RESULTS}/winners/`, form({ module: oneOf('1', '999', 'x') })),
  page('POST', `${RESULTS}/import/`, form({ rows: oneOf('[]', '[{"Title":"A"}]', '[{"Title":""}]', 'not json') })),
  page('POST', '/{org}/results/statuses/', form({ name: str(130), description: str(1100), progress: oneOf('0', '100', '101', 'x') })),
  // Guests (issue 34.4): becoming one needs the spam check (so it is only read here); a guest's registration.
  page('GET', '/accounts/guest/'),
  page('GET', '/accounts/guest/convert/'),
  page('POST', '/accounts/guest/convert/', form({ username: str(70), email: oneOf('guest@example.org', 'user@example.org', 'x', ''), password1: oneOf('a-long-secret', '1'), password2: oneOf('a-long-secret', ''), terms_of_use: oneOf('on', '') })),
  page('GET', '/moderatorremarks/4/1/'),
  page('POST', '/moderatorremarks/4/1/', REMARK),
  page('POST', '/moderatorremarks/12/1/', REMARK),
  page('GET', '/{org}/dashboard/communication/newsletters/'),
  page('GET', '/{org}/dashboard/communication/newsletters/create/'),
  page('POST', '/{org}/dashboard/communication/newsletters/create/', NEWSLETTER),
  page('GET', '/{org}/dashboard/settings/'),
  page('POST', '/{org}/dashboard/settings/', form({ name: str(120), title: str(100), description: str(800), url: str(200), image_copyright: str(200) }), [FORM, MULTIPART]),
  page('GET', '/{org}/dashboard/settings/legal-information/'),
  page('POST', '/{org}/dashboard/settings/legal-information/', form({ imprint: str(2000), terms_of_use: str(2000), data_protection: str(2000), netiquette: str(2000) })),
  page('GET', '/{org}/projects/moderator-invites/{invite}/'),
  page('GET', '/{org}/projects/participant-invites/{invite}/accept/'),
  page('POST', '/{org}/projects/moderator-invites/{invite}/', form({ action: oneOf('accept', 'reject', 'x') })),
  page('POST', '/{org}/projects/participant-invites/{invite}/', form({ action: oneOf('accept', 'reject') })),
  ...['/backoffice/', '/backoffice/organisations/', '/backoffice/organisations/{org}/', '/backoffice/users/', '/backoffice/projects/', '/backoffice/mails/', '/backoffice/reports/', '/backoffice/pages/', '/backoffice/pages/imprint/'].map((p) => page('GET', p)),
  page('POST', '/backoffice/organisations/', form({ name: str(120) })),
  page('POST', '/backoffice/organisations/{org}/', BACKOFFICE_ORG),
  page('POST', '/backoffice/users/', form({ action: oneOf('deactivate', 'activate', 'staff', 'unstaff', 'x'), user_id: oneOf('6', '7', '1', '0') })),
  page('POST', '/backoffice/projects/', form({ action: oneOf('archive', 'unarchive', 'x'), project_id: oneOf('1', '2', '3', '0') })),
  page('POST', '/backoffice/pages/{key}/', form({ body_de: str(2000), body_en: str(2000) })),
  // Content pages, the start page, the footer and the contact form (issue 34.7): the world has content page 1 (help).
  ...['/backoffice/content/', '/backoffice/content/create/', '/backoffice/content/1/', '/backoffice/start-page/', '/backoffice/platform/', '/pages/help/', '/pages/nope/', '/contact/'].map((p) => page('GET', p)),
  page('POST', '/backoffice/content/create/', CONTENT_PAGE),
  page('POST', '/backoffice/content/1/', CONTENT_PAGE),
  page('POST', '/backoffice/content/999/delete/', form({})),
  page('POST', '/backoffice/start-page/', START_PAGE, [FORM, MULTIPART]),
  page('POST', '/backoffice/platform/', PLATFORM, [FORM, MULTIPART]),
  // The contact form needs the spam check, so a sent message is never generated here: the refusals are.
  page('POST', '/contact/', CONTACT),
  // The notification centre and its settings (issue 34.3): notification 1 is the user's, 2 another's. Opening one
  // (GET /userdashboard/notifications/<id>/) marks it read, as a+'s mark_notification_as_read does, so it is no read-only request
  // and stays out (test/me/dashboard/notifications.test.ts opens one, and another user's is 404 there).
  ...['/userdashboard/notifications/', '/account/notifications/'].map((p) => page('GET', p)),
  page('POST', '/userdashboard/notifications/1/read/', form({})),
  page('POST', '/userdashboard/notifications/2/read/', form({})),
  page('POST', '/userdashboard/notifications/read_all/', form({})),
  page('POST', '/account/notifications/', form({ get_newsletters: oneOf('on', ''), notification: oneOf('comment', 'reply', 'event_soon', 'x'), in_app: oneOf('comment', 'event_soon', 'x'), in_app_shown: oneOf('1', '') })),
  // Machine summaries (issue 34.9): off in the fuzz world, so asking for one is refused (400).
  ...[`${PROJECT}/summary/`, '/{org}/projects/{slug}/summary/'].map((p) => page('GET', p)),
  page('POST', `${PROJECT}/summary/`, form({ scope: oneOf('', '1', '2', '999', 'x') })),
  page('POST', `${PROJECT}/summary/1/publish/`, form({})),
  // Map presets and districts (issue 34.6): the world has district 1, preset category 1 and preset 1.
  ...['/backoffice/maps/', '/backoffice/maps/presets/create/', '/backoffice/maps/presets/1/', '/backoffice/maps/districts/create/', '/backoffice/maps/districts/1/'].map((p) => page('GET', p)),
  page('POST', '/backoffice/maps/categories/', form({ name: str(140) })),
  page('POST', '/backoffice/maps/presets/create/', PLACE, [FORM, MULTIPART]),
  page('POST', '/backoffice/maps/presets/1/', PLACE, [FORM, MULTIPART]),
  page('POST', '/backoffice/maps/districts/1/', PLACE, [FORM, MULTIPART]),
  page('POST', '/backoffice/maps/districts/999/delete/', form({})),
  page('POST', '/backoffice/maps/categories/999/delete/', form({})),
];
