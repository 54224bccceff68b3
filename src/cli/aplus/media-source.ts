import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { createGunzip } from 'node:zlib';
import { AplusImportError } from './dump.js';

/** The old installation's `media/` folder, given as a folder or a `.tar.gz` of it (unpacked into a temporary folder). */
export interface MediaSource {
  /** The file's bytes, or null when MEDIA does not have it. */
  read(path: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

/** A path from the dump that stays inside the media folder. */
const safe = (path: string) => path && !path.startsWith('/') && !normalize(path).split(sep).includes('..');

function folderSource(root: string, cleanup?: () => Promise<void>): MediaSource {
  // `media.tar.gz` may hold `media/…` or the folder's content directly; so may a folder.
  const roots = [root, join(root, 'media')];
  return {
    async read(path) {
      if (!safe(path)) return null;
      for (const base of roots) {
        const file = join(base, path);
        if (existsSync(file) && statSync(file).isFile()) return readFile(file);
      }
      return null;
    },
    close: cleanup ?? (async () => undefined),
  };
}

const field = (header: Buffer, start: number, length: number) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');

/**
 * Unpacks a gzipped tar (ustar, GNU long names, pax paths) into `target`, streaming: regular files
 * only, nothing outside `target`. A small reader of its own: the format is 512-byte blocks.
 */
async function untar(file: string, target: string): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let entry: { path: string | null; left: number; padding: number; chunks: Buffer[] } | null = null;
  let longName: string | null = null;
  let paxPath: string | null = null;
  const finishEntry = async (current: { path: string | null; chunks: Buffer[] }, type: string) => {
    const data = Buffer.concat(current.chunks);
    if (type === 'L') longName = data.toString('utf8').replace(/\0.*$/s, '');
    else if (type === 'x') paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? null;
    else if (current.path && safe(current.path)) {
      const out = join(target, current.path);
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, data);
    }
  };
  let entryType = '';
  const stream = createReadStream(file).pipe(createGunzip());
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (entry) {
        const take = Math.min(entry.left, pending.length);
        if (take) {
          if (entry.path !== null || entryType === 'L' || entryType === 'x') entry.chunks.push(pending.subarray(0, take));
          pending = pending.subarray(take);
          entry.left -= take;
        }
        if (entry.left > 0) break;
        if (pending.length < entry.padding) break;
        pending = pending.subarray(entry.padding);
        await finishEntry(entry, entryType);
        entry = null;
        continue;
      }
      if (pending.length < 512) break;
      const header = pending.subarray(0, 512);
      pending = pending.subarray(512);
      if (header.every((byte) => byte === 0)) continue;
      const size = parseInt(field(header, 124, 12).trim() || '0', 8);
      entryType = String.fromCharCode(header[156] || 48);
      const prefix = field(header, 257, 6).startsWith('ustar') ? field(header, 345, 155) : '';
      let path: string | null = longName ?? paxPath ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
      if (entryType !== 'L' && entryType !== 'x') {
        longName = null;
        paxPath = null;
      }
      if (entryType !== '0' && entryType !== '7') path = null;
      entry = { path: path?.replace(/^\.\//, '') ?? null, left: size, padding: (512 - (size % 512)) % 512, chunks: [] };
    }
  }
  if (entry) throw new Error('the archive ends inside a file');
}

/** Opens MEDIA: a folder as it is, a `.tar.gz`/`.tgz` unpacked into a temporary folder (removed on close). */
export async function openMediaSource(path: string): Promise<MediaSource> {
  if (!existsSync(path)) throw new AplusImportError(`the media ${path} does not exist (give the old media/ folder or a .tar.gz of it)`);
  if (statSync(path).isDirectory()) return folderSource(path);
  if (!/\.(tar\.gz|tgz)$/i.test(path)) throw new AplusImportError(`the media ${path} is neither a folder nor a .tar.gz`);
  const target = await mkdtemp(join(tmpdir(), 'allmende-aplus-media-'));
  try {
    await untar(path, target);
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw new AplusImportError(`the media archive ${path} cannot be unpacked: ${error instanceof Error ? error.message : String(error)}`);
  }
  return folderSource(target, () => rm(target, { recursive: true, force: true }));
}
