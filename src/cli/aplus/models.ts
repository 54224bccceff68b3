/**
 * What the import does with each adhocracy+ model (lower-case `app_label.modelname`, as dumpdata
 * writes it). Models with an importer are in `import.ts`; these are the ones it leaves out, each
 * with its reason, so that the report and docs/migrating-from-adhocracy-plus.md say why.
 */

/** Models only a+'s frameworks need: nothing a user sees is lost without them. */
export const SKIPPED_ON_PURPOSE: [RegExp, string][] = [
  [/^auth\.permission$/, "Django's permission table: Allmende's rules are code (rules.ts)"],
  [/^auth\.group$/, 'permission groups (used by wagtail editors and the unused Project.group)'],
  [/^contenttypes\.contenttype$/, 'resolved into content kinds while importing'],
  [/^sessions\.session$/, 'browser sessions: everyone signs in again'],
  [/^admin\.logentry$/, "Django admin's log"],
  [/^sites\.site$/, 'configuration: the platform address is BASE_URL'],
  [/^easy_thumbnails\./, 'thumbnail cache: Allmende makes its smaller sizes itself'],
  [/^a4_candy_cms_images\.customrendition$/, 'wagtail image renditions (a cache)'],
  [/^wagtail(core|admin|search|embeds|redirects|users|forms|images)\./, "wagtail CMS internals (workflows, revisions, permissions, search index, renditions; each page's title and place in the tree are merged into the content page)"],
  [/^wagtaildocs\.(?!document$)/, 'wagtail document internals'],
  [/^a4_candy_cms_pages\.emptypage$/, "a folder of wagtail's page tree with no content of its own (its pages are imported)"],
  [/^a4_candy_cms_contacts\.formfield$/, "the fields of a+'s contact form: Allmende's contact form (/contact/) has its fixed fields"],
  [/^a4_candy_cms_contacts\.customformsubmission$/, 'messages sent through the contact form: they reached the operator by e-mail when they were sent'],
  [/^taggit\./, "tags of the CMS image library (searching in wagtail's image chooser)"],
  [/^django_celery_(results|beat)\./, 'celery task results and schedules'],
  [/^django_q\./, 'background task queue'],
  [/^account\.emailconfirmation$/, 'pending e-mail confirmations (a new link is sent at login)'],
  [/^socialaccount\.socialtoken$/, "provider access tokens (they expire; the provider issues new ones)"],
  [/^socialaccount\.socialapp$/, 'provider configuration: Allmende configures OpenID Connect providers in its environment'],
  [/^token_blacklist\.outstandingtoken$/, 'issued app refresh tokens: the app signs in again'],
  [/^token_blacklist\.blacklistedtoken$/, 'revoked app refresh tokens: the app signs in again, so none is outstanding'],
  [/^captcha\./, 'captcha challenges'],
  [/^a4modules\.item$/, 'the shared base of every item: merged into each item (its pk is the reference number)'],
  [/^a4polls\.othervote$/, "merged into the vote it belongs to (poll_votes.other_choice_answer)"],
  [/^a4maps\.areasettings$/, "merged into its module (modules.area)"],
  [/^a4_candy_moderatorfeedback\.moderatorfeedback$/, "merged into its item (moderator_feedback_text)"],
  [/^account\.emailaddress$/, 'merged into the user (email_verified of the primary address)'],
  [/^a4_candy_projects\.projectinsight$/, 'merged into its project (show_insights); the figures are counted anew from the imported contributions'],
  [/^a4_candy_organisations\.organisationtranslation$/, 'merged into its organisation (organisation_translations)'],
  [/^a4projects\.topic$/, "merged into its projects (the topic codes of projects.topics)"],
  [/^a4_candy_contrib\.settings$/, "a+'s settings of its AI summaries (prompt, refresh age; newer a+): Allmende's summaries are configured by SUMMARIES_URL and SUMMARIES_MODEL"],
];

/**
 * Models of a+'s product with no home in Allmende (each says why). One list, so that each is easy
 * to move into an importer when a feature for it lands.
 */
export const NO_HOME_YET: [RegExp, string][] = [
  [/^a4_candy_activities\./, "facilitator activities (the face-to-face phase's text of an old module type no a+ blueprint creates any more): its module and phase come along, but Allmende has no module type to show the activity; one would be registered like any other (the module-type contract)"],
  [/^a4_candy_organisations\.organisationfollow$/, "users following an organisation (newer a+, for newsletters to the organisation's followers): Allmende's followers follow projects, and an organisation has none yet"],
];

export const reasonOf = (list: [RegExp, string][], model: string) => list.find(([pattern]) => pattern.test(model))?.[1] ?? null;
