import { stripTags } from '../../text/html.js';
import { type CompletenessModule, moduleComponents, type Text } from '../../core/modules/registry.js';
import { phaseIsActive, phaseIsFuture } from '../../core/modules/phases.js';
import { type PlatformPageKey, REQUIRED_PLATFORM_PAGES } from '../../core/legal/texts.js';

/**
 * Completeness (§B8, §B9, §B15): which fields still block publishing, each named with the
 * component (form) it is edited in. One rule for the dashboard pages, services and any API or CLI.
 */
type ProjectComponent = 'basic' | 'information' | 'result' | 'location' | 'moderators' | 'participants';

export interface Missing {
  /** A project component, the key of one of the module's components, or `legal`: a platform text (imprint, data protection, terms of use) written in the back-office. */
  component: ProjectComponent | string;
  /** Set for a missing platform text. */
  legal?: PlatformPageKey;
  /** Set for a module's field. */
  module?: { slug: string; name: string };
  /** The field's label (a catalogue key, or a module type's own words) and its placeholders. */
  field: string | Text;
  vars?: Record<string, string>;
}

interface CompletenessProject {
  name: string;
  description: string;
  information: string;
}

export type { CompletenessModule };

const blank = (value: string | null) => !value || !value.trim();

export function projectMissing(project: CompletenessProject): Missing[] {
  const missing: Missing[] = [];
  if (blank(project.name)) missing.push({ component: 'basic', field: 'Title of your project' });
  if (blank(project.description)) missing.push({ component: 'basic', field: 'Short description of your project' });
  if (blank(stripTags(project.information))) missing.push({ component: 'information', field: 'Description of your project' });
  return missing;
}

/** What a module still needs: each of its components' publish checks (the registry's), in menu order. */
export function moduleMissing(module: CompletenessModule): Missing[] {
  const where = { slug: module.slug, name: module.name || module.slug };
  return moduleComponents(module.blueprintType).flatMap((component) =>
    (component.missing?.(module) ?? []).map((missing) => ({ component: component.key, module: where, ...missing })),
  );
}

/**
 * Issue 22.3: the platform's imprint, data protection notice and terms of use must be written
 * before any project goes live (citizens would otherwise find "not written yet" or be asked to
 * accept an empty text). `unwritten` comes from legal/queries.unwrittenPlatformPages.
 */
function legalMissing(unwritten: readonly PlatformPageKey[]): Missing[] {
  return REQUIRED_PLATFORM_PAGES.filter((key) => unwritten.includes(key)).map((key) => ({ component: 'legal', legal: key, field: LEGAL_FIELDS[key] }));
}

const LEGAL_FIELDS: Record<(typeof REQUIRED_PLATFORM_PAGES)[number], string> = {
  imprint: 'Imprint of the platform',
  privacy: 'Data protection notice of the platform',
  terms: 'Terms of use of the platform',
};

export type PublishCheck = { ok: true } | { ok: false; noModule: boolean; missing: Missing[] };

/**
 * §B15.5: at least one added module, and the project and every added module complete (draft
 * modules do not count); and the platform's required legal texts written (issue 22.3).
 */
export function publishCheck(project: CompletenessProject, modules: CompletenessModule[], unwrittenLegal: readonly PlatformPageKey[]): PublishCheck {
  const added = modules.filter((m) => !m.isDraft);
  const missing = [...projectMissing(project), ...added.flatMap(moduleMissing), ...legalMissing(unwrittenLegal)];
  if (added.length && !missing.length) return { ok: true };
  return { ok: false, noModule: added.length === 0, missing };
}

/**
 * §B15.7: a project can be archived when it has finished: it has published modules and none of
 * their phases is running or still to come.
 */
export function hasFinished(modules: CompletenessModule[], now: Date): boolean {
  const phases = modules.filter((m) => !m.isDraft).flatMap((m) => m.phases.map((p, i) => ({ ...p, id: i, type: '', weight: i })));
  return modules.some((m) => !m.isDraft) && !phases.some((p) => phaseIsActive(p, now) || phaseIsFuture(p, now));
}
