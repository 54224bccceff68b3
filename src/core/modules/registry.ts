import type { SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { ContentKind } from '../../db/schema/index.js';
import type { ModuleContext } from '../projects/rules.js';
import { type Lang, t } from '../../i18n/index.js';

/**
 * The module-type registry: what the floor of the house knows about each kind of module (adhocracy4's
 * blueprints and phase contents, made explicit). A module type lives in its own folder, declares a
 * `ModuleType` (features/moduletypes/contract.ts, which extends this with its pages, routes and
 * exports) and is listed once in src/module-types.ts. Shared code asks these lookups and never
 * names a module type.
 */

/** A text in every language of the platform (module types bring their own words). */
export type Text = Record<Lang, string>;

/** What a phase allows on its content. */
export type PhaseFeature = 'crud' | 'comment' | 'rate' | 'like' | 'vote' | 'support';

/** A phase type: its adhocracy+ identifier, what it allows on which content, and what a new phase of it is called. */
export interface PhaseType {
  type: string;
  /** The content kind the features apply to (adhocracy4's phase content model). */
  content: ContentKind;
  features: PhaseFeature[];
  name: Text;
  description: Text;
}

/** A module as the publish check sees it, with the facts its type loaded for it. */
export interface CompletenessModule {
  slug: string;
  name: string;
  description: string | null;
  isDraft: boolean;
  /** Unset: a module of no known type (the shared components' checks). */
  blueprintType?: string;
  phases: { name: string; description: string; startDate: Date | null; endDate: Date | null }[];
  facts?: Record<string, unknown>;
}

/** A field that still blocks publishing: its label (a catalogue key, or the type's own words) and placeholders. */
export interface MissingField {
  field: string | Text;
  vars?: Record<string, string>;
}

/** A dashboard component of a module: its key (the URL segment), its menu label and what it adds to the publish check. */
export interface ModuleComponent {
  key: string;
  /** A catalogue key for the shared components, the type's own words for its own. */
  label: string | Text;
  missing?: (module: CompletenessModule) => MissingField[];
}

/** A content type a module type brings: comments, ratings and reports on it go through the shared content-type API. */
export interface ContentTypeOfModule {
  kind: ContentKind;
  /** Its content type id, part of the API (`/api/contenttypes/{id}/…`; adhocracy+'s id): never renumber it (test/core/contenttypes/ids.test.ts). */
  id: number;
  /** adhocracy+'s app label and model of the kind (`GET /api/contenttypes/`). */
  appLabel: string;
  model: string;
  /** The content kind whose phase features govern it (a paragraph follows its chapter); itself when unset. */
  phaseContent?: ContentKind;
  commentable?: boolean;
  rateable?: boolean;
  reportable?: boolean;
  /** Moderators may keep an internal remark on its objects (a+ `moderatorremark`: ideas, map ideas, proposals; features/moderatorremarks). */
  remarkable?: boolean;
  /**
   * A project's results may answer its objects (features/results: the link, "This became part of",
   * the notices to its authors). `named` selects the (id, name) of its objects in some modules: the
   * link form searches and pages them in the database.
   */
  resultable?: { named: (moduleIds: SQL) => SQL };
  /** The winners of a module's vote with their budget (a budget vote's): the results dashboard turns them into results in one click. */
  winners?: (db: DbOrTx, moduleId: number) => Promise<{ id: number; name: string; budget: number }[]>;
  /** The object's module and creator; null when it does not exist. */
  target: (db: DbOrTx, id: number) => Promise<{ moduleId: number; creatorId: number | null } | null>;
  /**
   * The page of each object (where its discussion is) and its name, by id, in a constant number of statements; unset: the module page.
   * `moderatePath`: the page where a moderator gives it a status and statement, when it has one.
   */
  pages?: (db: DbOrTx, ids: number[]) => Promise<Map<number, { path: string; name: string; moderatePath?: string }>>;
  /**
   * Its objects in some modules with their module and author, as a subquery of three columns (`select id, module_id, creator_id
   * from … where module_id in (<moduleIds>)`; the author null::integer for a kind without one), given a subquery of module ids:
   * the module tiles' counts (figures.ts `loadModuleCounts`), the moderation queue (a project's reported objects) and the back-office
   * (their projects) read a kind's objects through it, in one statement.
   */
  inModules: (moduleIds: SQL) => SQL;
  /** The module page's statement brings the ids of its objects in the module (`PageModule.items`): for kinds with few objects per module (polls, chapters). */
  onModulePage?: boolean;
  /** False: comments on its objects stay out of the activity feed (`me/dashboard`; a+ leaves out polls, chapters, paragraphs). */
  inFeed?: boolean;
  /** What its reported objects are called in the moderation queue ('reported idea', 'reported ideas'); required when reportable. */
  reportedNames?: { one: Text; many: Text };
  /**
   * What becomes of the objects of an author who deletes the account (core/users/deletion.ts asks every kind, inside the
   * deletion's transaction): deleted, or handed over to the placeholder account `placeholderId`. Returns the media files
   * (relative paths) to remove once the transaction has committed. A kind without authors answers `[]`.
   */
  onAuthorDeleted: (tx: Tx, userId: number, placeholderId: number) => Promise<string[]>;
  /**
   * Whether the caller may add objects of this kind to a module, as the mobile app asks it for every
   * module (the app API's `has_idea_adding_permission`, adhocracy+'s add permission of the one kind
   * the app adds). One kind answers it; the app API asks that kind, whatever the module's type.
   */
  appCanAdd?: (c: ModuleContext) => boolean;
  /**
   * "Download my data" (GDPR Art. 15, 20): the user's own objects of this kind as one JSON file of the
   * archive (`file`, e.g. 'ideas.json'); `image` puts an uploaded image into the archive and gives its name there.
   */
  personalData?: (db: DbOrTx, userId: number, image: (folder: string, id: number, media: string | null) => string | null) => Promise<{ file: string; records: Record<string, unknown>[] }>;
}

/** A module tile's first count: its words for one and for many (with `%(count)s`) and what it counts. */
export interface TileCount {
  one: Text;
  many: Text;
  /**
   * The counted things in some modules with their module and person, as a subquery of three columns (`select id, module_id,
   * creator_id …`, as `ContentTypeOfModule.inModules`; the id may be text, the person null), given a subquery of module ids.
   * Unset: the objects of the type's first content type. Types that count the same things share the function.
   */
  items?: (moduleIds: SQL) => SQL;
}

/** The part of a module type the floor reads. */
export interface ModuleTypeCore {
  /** The module's blueprint_type ('BS'). */
  blueprintType: string;
  /** The dashboard's blueprint key ('brainstorming'). */
  key: string;
  title: Text;
  description: Text;
  /** Listed among the module types an initiator can add; false for a type whose data is known but whose pages are not built yet. */
  offered: boolean;
  /** The phases a new module gets, in order. */
  phases: PhaseType[];
  /** Further phase types of this kind of module (imported data, other blueprints of the reference). */
  otherPhases?: PhaseType[];
  /** Its dashboard components, in menu order (the shared ones are in SHARED_COMPONENTS). */
  components: ModuleComponent[];
  /** Facts the publish checks of its components read, for many modules in one statement. */
  facts?: (db: DbOrTx, moduleIds: number[]) => Promise<Map<number, Record<string, unknown>>>;
  /** Its content types. */
  contentTypes?: ContentTypeOfModule[];
  /** The app API field that names a project's single module of this type ('single_idea_collection_module'). */
  appProjectField?: string;
  /**
   * The tables its folder owns (its content's and their links, settings, votes): the test that shared code names no module type
   * (test/architecture/module-type-names.unit.test.ts) looks for them.
   */
  tables: string[];
  /** Its content counts as ideas in the project statistics. */
  countsIdeas?: boolean;
  /**
   * What its module tiles count first, in its own words with `%(count)s` ('3 ideas', '2 subjects', '5 ballots'); unset: the
   * tile counts only comments and participants (a text review's content is its comments).
   */
  tileCount?: TileCount;
  /** Top-level comments in its modules take the comment categories (suggestion, note, question; a+ offers them in debates). */
  commentCategories?: boolean;
}

const types = new Map<string, ModuleTypeCore>();
const phaseTypes = new Map<string, PhaseType>();
const contentTypes = new Map<ContentKind, ContentTypeOfModule>();

/** Registers a module type (src/module-types.ts does it for every listed type; a type registers once). */
export function registerModuleType(type: ModuleTypeCore): void {
  const known = types.get(type.blueprintType);
  if (known === type) return;
  if (known || [...types.values()].some((t) => t.key === type.key)) throw new Error(`module type ${type.blueprintType} (${type.key}) is registered twice`);
  types.set(type.blueprintType, type);
  for (const phase of [...type.phases, ...(type.otherPhases ?? [])]) phaseTypes.set(phase.type, phase);
  for (const content of type.contentTypes ?? []) {
    if (content.reportable && !content.reportedNames) throw new Error(`content type ${content.kind} is reportable but lacks reportedNames (the moderation queue needs them)`);
    contentTypes.set(content.kind, content);
  }
}

export const moduleTypes = (): ModuleTypeCore[] => [...types.values()];
/** What a type's tiles count, as a subquery over module ids; null when its tiles count no items. */
export const tileItemsOf = (type: ModuleTypeCore): ((moduleIds: SQL) => SQL) | null => (type.tileCount ? (type.tileCount.items ?? type.contentTypes?.[0]?.inModules ?? null) : null);
export const moduleTypeOf = (blueprintType: string): ModuleTypeCore | null => types.get(blueprintType) ?? null;
export const moduleTypeByKey = (key: string): ModuleTypeCore | null => moduleTypes().find((t) => t.key === key) ?? null;
export const phaseType = (type: string): PhaseType | null => phaseTypes.get(type) ?? null;
export const contentTypeOfModule = (kind: ContentKind): ContentTypeOfModule | null => contentTypes.get(kind) ?? null;
/** Every module type's content types, in registration order. */
export const moduleContentTypes = (): ContentTypeOfModule[] => [...contentTypes.values()];
/** The content type the mobile app adds, whose `appCanAdd` the app API asks for every module; null when no kind declares one. */
export const appAddedContentType = (): ContentTypeOfModule | null => [...contentTypes.values()].find((c) => c.appCanAdd) ?? null;
/** The content types that can be reported (comments aside), in registration order. */
export const reportableContentTypes = (): ContentTypeOfModule[] => [...contentTypes.values()].filter((c) => c.reportable === true);
/** The content types whose objects take a moderator remark, in registration order. */
export const resultableContentTypes = () => [...contentTypes.values()].flatMap((c) => (c.resultable ? [{ ...c, resultable: c.resultable }] : []));
/** The kind whose modules have winners (a budget vote's proposals), if a registered type declares one. */
export const winnerContentType = (): ContentTypeOfModule | null => [...contentTypes.values()].find((c) => c.winners) ?? null;
export const remarkableContentTypes = (): ContentTypeOfModule[] => [...contentTypes.values()].filter((c) => c.remarkable === true);
/** A label in a language: a catalogue key through the catalogue, a module type's own words as they are. */
export const labelIn = (lang: Lang, label: string | Text, vars?: Record<string, string | number>) => t(lang, typeof label === 'string' ? label : label[lang], vars);

const blank = (value: string | null) => !value || !value.trim();

/** The shared dashboard components (§B9): every module has the first two; categories and labels where its type lists them. */
export const SHARED_COMPONENTS = {
  basic: {
    key: 'module_basic',
    label: 'Basic information',
    missing: (module) => [
      ...(blank(module.name) ? [{ field: 'Title of the module' }] : []),
      ...(blank(module.description) ? [{ field: 'Module description' }] : []),
    ],
  },
  phases: {
    key: 'phases',
    label: 'Phases',
    missing: (module) =>
      module.phases.flatMap((phase, i) => {
        const vars = { n: String(i + 1) };
        const fields: MissingField[] = [];
        if (blank(phase.name)) fields.push({ field: 'Phase %(n)s: name', vars });
        if (blank(phase.description)) fields.push({ field: 'Phase %(n)s: description', vars });
        if (!phase.startDate) fields.push({ field: 'Phase %(n)s: start date', vars });
        if (!phase.endDate) fields.push({ field: 'Phase %(n)s: end date', vars });
        return fields;
      }),
  },
  categories: { key: 'categories', label: 'Categories' },
  labels: { key: 'labels', label: 'Labels' },
} satisfies Record<string, ModuleComponent>;

/** A module's dashboard components: its type's, or the shared ones for a module of an unknown type. */
export const moduleComponents = (blueprintType: string | undefined): ModuleComponent[] =>
  (blueprintType === undefined ? null : moduleTypeOf(blueprintType))?.components ?? [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases];
