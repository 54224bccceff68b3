import { stripTags } from '../../text/html.js';
import type { ModuleComponent } from '../../core/modules/registry.js';
import { phaseIsActive, phaseIsFuture } from '../../core/modules/phases.js';

/**
 * Completeness (§B8, §B9, §B15): which fields still block publishing, each named with the
 * component (form) it is edited in. One rule for the dashboard pages, services and any API or CLI.
 */
export type ProjectComponent = 'basic' | 'information' | 'result' | 'location' | 'moderators' | 'participants';

export interface Missing {
  component: ProjectComponent | ModuleComponent;
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

export type PublishCheck = { ok: true } | { ok: false; noModule: boolean; missing: Missing[] };

/** §B15.5: at least one added module, and the project and every added module complete (draft modules do not count). */
export function publishCheck(project: CompletenessProject, modules: CompletenessModule[]): PublishCheck {
  const added = modules.filter((m) => !m.isDraft);
  const missing = [...projectMissing(project), ...added.flatMap(moduleMissing)];
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
