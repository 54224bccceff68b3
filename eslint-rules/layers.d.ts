/** Types of the layer check's helpers (eslint-rules/layers.js). */
export const LAYERS: { name: string; folders: string[] }[];
export function folderOf(srcRoot: string, file: string): string | null;
export function layerOf(folder: string): number;
export function folderGraph(srcRoot: string): { graph: Map<string, Set<string>>; imports: Map<string, string[]> };
export function crossesWings(from: string, to: string): boolean;
export function layerViolations(srcRoot: string): { unplaced: string[]; upward: string[]; cycles: string[][]; acrossWings: string[]; acrossTypes: string[] };
export const layersPlugin: import('eslint').ESLint.Plugin;
