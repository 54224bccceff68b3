import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { mediaFiles } from '../db/schema/index.js';
import { ImageInvalid, type ImageRules, type IngestedImage, ingestImage, loadSharp, thumbnailPath } from './images.js';
import { unreferenced } from './references.js';
import { imageSrcset, makeVariant, variantPath, VARIANT_WIDTHS, type VariantWidth } from './variants.js';

/** Where uploaded media are kept (MEDIA_STORE): one machine's directory (DATA_DIR/media) or the database every instance shares. */
export type MediaStoreKind = Config['mediaStore'];

/**
 * The one interface of both stores. A path is media-relative (`ideas/images/<sha256>.png`, served
 * at /media/<path>) and never changes its content: writing a stored path again changes nothing.
 */
export interface MediaFiles {
  readonly kind: MediaStoreKind;
  read(path: string): Promise<Buffer | null>;
  write(path: string, data: Buffer): Promise<void>;
  remove(paths: string[]): Promise<void>;
  /** Every stored path, sorted (the move between stores). */
  paths(): Promise<string[]>;
}

/** A path the upload code makes: folders and a name of letters, digits, `-`, `_` and inner dots; nothing that leaves the store. */
export const isMediaPath = (path: string) => path.length <= 500 && /^[\w-]+(\/[\w-][\w.-]*)*$/.test(path);

/** The SHA-256 a content-addressed path names (`…/<64 hex>.png|jpg|gif`, not a smaller copy), or null. */
export const pathHash = (path: string) => (path.startsWith('variants/') ? null : (/(?:^|\/)([0-9a-f]{64})\.(png|jpg|gif)$/.exec(path)?.[1] ?? null));

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf' };
export const mediaType = (path: string) => TYPES[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** DATA_DIR/media on this machine; without a directory (tests without DATA_DIR) nothing can be stored. */
class DirectoryFiles implements MediaFiles {
  readonly kind = 'directory';
  constructor(private readonly root: string) {
    if (root) mkdirSync(root, { recursive: true });
  }

  async read(path: string) {
    if (!this.root || !isMediaPath(path)) return null;
    return readFile(join(this.root, path)).catch(() => null);
  }

  async write(path: string, data: Buffer) {
    if (!this.root) throw new ImageInvalid('Uploads are not available.');
    if (!isMediaPath(path)) throw new Error(`not a media path: ${path}`);
    const file = join(this.root, path);
    await mkdir(dirname(file), { recursive: true });
    // Written aside and renamed: a reader never sees half a file.
    const staging = `${file}.${randomUUID()}.part`;
    await writeFile(staging, data);
    await rename(staging, file);
  }

  async remove(paths: string[]) {
    if (!this.root) return;
    for (const path of paths.filter(isMediaPath)) await rm(join(this.root, path), { force: true });
  }

  async paths() {
    if (!this.root) return [];
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(this.root, join(entry.parentPath, entry.name)).split('\\').join('/'))
      .filter((path) => isMediaPath(path) && !path.endsWith('.part'))
      .sort();
  }
}

/** The table media_files of the database every instance shares. */
class DatabaseFiles implements MediaFiles {
  readonly kind = 'database';
  constructor(private readonly db: DbOrTx) {}

  async read(path: string) {
    if (!isMediaPath(path)) return null;
    const [row] = await this.db.select({ data: mediaFiles.data }).from(mediaFiles).where(eq(mediaFiles.path, path));
    return row?.data ?? null;
  }

  async write(path: string, data: Buffer) {
    if (!isMediaPath(path)) throw new Error(`not a media path: ${path}`);
    await this.db.insert(mediaFiles).values({ path, sha256: sha256(data), contentType: mediaType(path), size: data.length, data }).onConflictDoNothing();
  }

  async remove(paths: string[]) {
    if (paths.length) await this.db.delete(mediaFiles).where(inArray(mediaFiles.path, paths));
  }

  async paths() {
    return (await this.db.select({ path: mediaFiles.path }).from(mediaFiles).orderBy(mediaFiles.path)).map((row) => row.path);
  }
}

/** The store MEDIA_STORE names; `db` may be a transaction (loaddata stores a fixture's files with its rows). */
export function openMediaFiles(kind: MediaStoreKind, options: { dataDir: string; db: DbOrTx }): MediaFiles {
  return kind === 'database' ? new DatabaseFiles(options.db) : new DirectoryFiles(options.dataDir ? join(options.dataDir, 'media') : '');
}

/**
 * Uploaded media over either store: images are stored under their content's SHA-256, so the
 * same picture is one file however often it is used (a duplicated project shares its images), and
 * a file is removed only when no row names it any more (media/references.ts).
 */
export class Media {
  constructor(
    readonly files: MediaFiles,
    private readonly db: DbOrTx,
  ) {}

  /** Stores an ingested image under <folder>/<sha256>.<ext>; returns that media path. */
  async put(folder: string, image: IngestedImage): Promise<string> {
    const path = `${folder}/${sha256(image.data)}.${image.ext}`;
    await this.files.write(path, image.data);
    return path;
  }

  /** Stores an upload after the one ingest (media/images.ts `ingestImage`); a refused upload stores nothing. Returns the media path. */
  async storeImage(folder: string, data: Buffer, rules: ImageRules): Promise<string> {
    return this.put(folder, await ingestImage(data, rules));
  }

  read(path: string) {
    return this.files.read(path);
  }

  /** Stores a file derived from a stored image (a thumbnail); it goes when the image goes. */
  write(path: string, data: Buffer) {
    return this.files.write(path, data);
  }

  /** The smaller copy of a stored image, made on the first request when missing; null when the image is gone. */
  async variant(path: string, width: VariantWidth): Promise<Buffer | null> {
    const stored = await this.files.read(variantPath(path, width));
    if (stored) return stored;
    const original = await this.files.read(path);
    if (!original) return null;
    const made = await makeVariant(original, path, width);
    await this.files.write(variantPath(path, width), made);
    return made;
  }

  /** Widths of stored images read so far (a path names one content, so a width never changes). */
  private readonly widths = new Map<string, number>();

  /** A stored image's width in pixels, read once per process; null when it is gone or no image. */
  async imageWidth(path: string): Promise<number | null> {
    const known = this.widths.get(path);
    if (known !== undefined) return known;
    const data = await this.files.read(path);
    if (!data) return null;
    const width = await loadSharp()
      .then(async (sharp) => (await sharp(data).metadata()).width ?? null)
      .catch(() => null);
    if (width === null) return null;
    if (this.widths.size >= 10_000) this.widths.clear();
    this.widths.set(path, width);
    return width;
  }

  /** The `srcset` of a stored image (media/variants.ts `imageSrcset`), or undefined when there is none or its width cannot be read. */
  async srcset(path: string | null | undefined): Promise<string | undefined> {
    if (!path) return undefined;
    const width = await this.imageWidth(path);
    return width ? imageSrcset(path, width) : undefined;
  }

  /** Tiles with the `srcset` of their tile image (`tileSrcset`), for the lists that show project tiles. */
  async withTileSrcsets<T extends { tileImage: string | null }>(tiles: T[]): Promise<(T & { tileSrcset?: string })[]> {
    return Promise.all(tiles.map(async (tile) => ({ ...tile, tileSrcset: await this.srcset(tile.tileImage) })));
  }

  /** Makes every smaller copy of a freshly stored image. */
  async writeVariants(path: string): Promise<void> {
    for (const width of VARIANT_WIDTHS) await this.variant(path, width);
  }

  /** Removes stored files (with their smaller copies and thumbnail) that no row names any more; files already gone are fine. */
  async remove(...paths: (string | null | undefined)[]): Promise<void> {
    const gone = await unreferenced(this.db, paths.filter((path): path is string => Boolean(path && isMediaPath(path))));
    await this.files.remove(gone.flatMap((path) => [path, thumbnailPath(path), ...VARIANT_WIDTHS.map((width) => variantPath(path, width))]));
  }
}

export const openMedia = (kind: MediaStoreKind, options: { dataDir: string; db: DbOrTx }) => new Media(openMediaFiles(kind, options), options.db);
