import { stripTags } from '../../text/html.js';
import type { ModuleComponent } from '../modules/blueprints.js';
import { phaseIsActive, phaseIsFuture } from '../modules/phases.js';
import { type PlatformPageKey, REQUIRED_PLATFORM_PAGES } from '../legal/texts.js';

/**
 * Completeness (§B8, §B9, §B15): which fields still block publishing, each named with the
 * component (form) it is edited in. One rule for the dashboard pages, services and any API or CLI.
 */
export type ProjectComponent = 'basic' | 'information' | 'result' | 'location' | 'moderators' | 'participants';

export interface Missing {
  /** `legal`: a platform text (imprint, data protection, terms of use) written in the back-office. */
  component: ProjectComponent | ModuleComponent | 'legal';
  /** Set for a missing platform text. */
  legal?: PlatformPageKey;
  /** Set for a module's field. */
  module?: { slug: string; name: string };
  /** The field's label (a catalogue key) and its placeholders. */
  field: string;
  vars?: Record<string, string>;
}

export interface CompletenessProject {
  name: string;
  description: string;
  information: string;
}

export interface CompletenessModule {
  slug: string;
  name: string;
  description: string | null;
  isDraft: boolean;
  phases: { name: string; description: string; startDate: Date | null; endDate: Date | null }[];
}

const blank = (value: string | null) => !value || !value.trim();

export function projectMissing(project: CompletenessProject): Missing[] {
  const missing: Missing[] = [];
  if (blank(project.name)) missing.push({ component: 'basic', field: 'Title of your project' });
  if (blank(project.description)) missing.push({ component: 'basic', field: 'Short description of your project' });
  if (blank(stripTags(project.information))) missing.push({ component: 'information', field: 'Description of your project' });
  return missing;
}

export function moduleMissing(module: CompletenessModule): Missing[] {
  const where = { slug: module.slug, name: module.name || module.slug };
  const missing: Missing[] = [];
  if (blank(module.name)) missing.push({ component: 'module_basic', module: where, field: 'Title of the module' });
  if (blank(module.description)) missing.push({ component: 'module_basic', module: where, field: 'Module description' });
  module.phases.forEach((phase, i) => {
    const vars = { n: String(i + 1) };
    if (blank(phase.name)) missing.push({ component: 'phases', module: where, field: 'Phase %(n)s: name', vars });
    if (blank(phase.description)) missing.push({ component: 'phases', module: where, field: 'Phase %(n)s: description', vars });
    if (!phase.startDate) missing.push({ component: 'phases', module: where, field: 'Phase %(n)s: start date', vars });
    if (!phase.endDate) missing.push({ component: 'phases', module: where, field: 'Phase %(n)s: end date', vars });
  });
  return missing;
}

/**
 * Issue 22.3: the platform's imprint, data protection notice and terms of use must be written
 * before any project goes live (citizens would otherwise find "not written yet" or be asked to
 * accept an empty text). `unwritten` comes from legal/queries.unwrittenPlatformPages.
 */
export function legalMissing(unwritten: readonly PlatformPageKey[]): Missing[] {
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
