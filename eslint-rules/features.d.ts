/** Types of the local ESLint rules' helpers (the rules are plain JS so that ESLint loads them without a build). */
export function importGraph(root: string): Map<string, Set<string>>;
export function cycles(graph: Map<string, Set<string>>): string[][];
export const featuresPlugin: { rules: Record<string, unknown> };
export function resolveImport(from: string, specifier: string): string | null;
