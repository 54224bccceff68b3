import type { MediaFiles } from './store.js';

interface MoveCounts {
  moved: number;
  /** In the target already with the same bytes (an earlier, interrupted run): only removed from the source. */
  present: number;
  failed: number;
}

const reportFailure = (path: string, error: unknown) => console.error(`${path}: ${error instanceof Error ? error.message : String(error)}`);

/**
 * Moves every file of one store into the other (`manage media-move`), one file at a time: it is
 * written to the target, read back and compared, and only then removed from the source; a file
 * that fails stays in the source (reported, the rest go on). Paths stay as they are, so every row
 * keeps naming its file; running it again moves what is left.
 */
export async function moveMedia(from: MediaFiles, to: MediaFiles, report = reportFailure): Promise<MoveCounts> {
  const counts: MoveCounts = { moved: 0, present: 0, failed: 0 };
  for (const path of await from.paths()) {
    try {
      const data = await from.read(path);
      if (!data) continue; // removed meanwhile
      const there = await to.read(path);
      if (there && !there.equals(data)) throw new Error('the target holds other content under this path; left in both stores');
      if (!there) await to.write(path, data);
      if (!(await to.read(path))?.equals(data)) throw new Error('the written copy differs; left in the source');
      await from.remove([path]);
      counts[there ? 'present' : 'moved'] += 1;
    } catch (error) {
      counts.failed += 1;
      report(path, error);
    }
  }
  return counts;
}
