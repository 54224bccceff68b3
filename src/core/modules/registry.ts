/**
 * Module types an initiator can add (§B6). A new module type is a new entry here: its phases
 * (types from PHASE_FEATURES, in order) and the dashboard components it shows (§B9).
 */
export type ModuleComponent = 'module_basic' | 'phases' | 'categories' | 'labels';

export interface Blueprint {
  key: string;
  title: string;
  description: string;
  /** The module's blueprint_type. */
  type: string;
  phases: { type: string; name: string; description: string }[];
  components: ModuleComponent[];
}

const COLLECT = {
  type: 'a4_candy_ideas:collect',
  name: 'Collect phase',
  description: 'Create new ideas and comment on them.',
};
const RATING = {
  type: 'a4_candy_ideas:rating',
  name: 'Rating phase',
  description: 'Rate the collected ideas (pro and contra).',
};

export const BLUEPRINTS: Blueprint[] = [
  {
    key: 'brainstorming',
    title: 'Brainstorming',
    description: 'Participants can submit their own ideas and discuss the ideas of others.',
    type: 'BS',
    phases: [COLLECT],
    components: ['module_basic', 'phases', 'categories', 'labels'],
  },
  {
    key: 'idea-collection',
    title: 'Idea Challenge',
    description: 'In a first phase, participants can submit their own ideas and discuss the ideas of others. In a second phase, the ideas can be rated (pro/contra).',
    type: 'IC',
    phases: [COLLECT, RATING],
    components: ['module_basic', 'phases', 'categories', 'labels'],
  },
];

export const blueprintByKey = (key: string) => BLUEPRINTS.find((b) => b.key === key) ?? null;

/** The dashboard components of a module of this type; modules of types without an entry get the basic ones. */
export const moduleComponents = (blueprintType: string): ModuleComponent[] =>
  BLUEPRINTS.find((b) => b.type === blueprintType)?.components ?? ['module_basic', 'phases'];
