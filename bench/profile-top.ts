/** The functions with the most self time in a .cpuprofile (from node --cpu-prof). */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { nodes: Node[] };
const total = profile.nodes.reduce((n, node) => n + node.hitCount, 0);
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/src\//, 'src/')}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.hitCount);
}
for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 25))) {
  console.log(`${((100 * hits) / total).toFixed(1).padStart(5)} %  ${key}`);
}
