/**
 * Project topics (§B8 basic settings; the reference keeps a topics relation on the project but
 * offers no form for it at R). Our decision, in docs/dashboard.md: a fixed list of codes with
 * English labels (German in the catalogue), at most MAX_PROJECT_TOPICS per project, shown on the
 * project page; the app API does not carry them (its project shape has no topics field).
 */
export const PROJECT_TOPICS = {
  ANT: 'Anti-discrimination',
  WOR: 'Work & economy',
  BUI: 'Building & living',
  EDU: 'Education & research',
  CHI: 'Children, youth & family',
  FIN: 'Finances',
  HEA: 'Health & sports',
  INT: 'Integration',
  CUL: 'Culture & leisure',
  NEI: 'Neighbourhood & participation',
  URB: 'Urban development',
  ENV: 'Environment & public green space',
  TRA: 'Traffic',
} as const;

export type ProjectTopic = keyof typeof PROJECT_TOPICS;
export const MAX_PROJECT_TOPICS = 2;

export const isProjectTopic = (code: string): code is ProjectTopic => Object.hasOwn(PROJECT_TOPICS, code);

/** Topic codes in the list's order, each once (what is stored). */
export const orderedTopics = (codes: readonly string[]): ProjectTopic[] => (Object.keys(PROJECT_TOPICS) as ProjectTopic[]).filter((code) => codes.includes(code));
