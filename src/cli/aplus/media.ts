import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { avatarThumbnailPath } from '../../core/users/avatars.js';
import { loadSharp } from '../../media/images.js';
import { isMediaPath, type Media, sha256 } from '../../media/store.js';
import type { MediaSource } from './media-source.js';

/** What became of the media files the dump names. */
export interface MediaResult {
  copied: number;
  /** Files the dump names that MEDIA does not have: the row is imported without the image. */
  missing: { path: string; model: string; pk: string }[];
  /** Files that are there but are no image the platform can show (kept, without smaller sizes). */
  notImages: string[];
  /** Files a rich text links to (`/media/…`) whose name the media store does not take: the link stays, the file is not copied. */
  notKept?: { path: string; model: string; pk: string }[];
}

/** A link ends at a quote, an angle bracket, a query or fragment, a backslash (JSON's escaped quote), a parenthesis (CSS url()) or a space. */
const EMBEDDED_LINK = String.raw`/media/([^"'<>?#\\)[:space:]]+)`;

/**
 * Every `/media/<path>` a staged record's text links to (CKEditor's uploads, `/media/uploads/…`, in
 * descriptions, information, newsletters…), with the first record that does, in one statement.
 */
async function embeddedPaths(tx: Tx): Promise<{ path: string; model: string; pk: string }[]> {
  const result = (await tx.execute(sql`
    SELECT DISTINCT ON (path) path, model, pk FROM (
      SELECT m[1] AS path, model, pk, seq FROM aplus_rows, regexp_matches(fields::text, ${EMBEDDED_LINK}, 'g') AS m
    ) found ORDER BY path, seq`)) as unknown as { rows: { path: string; model: string; pk: string }[] };
  return result.rows;
}

/**
 * Copies the files the dump names from the old media folder into the media store, under the same
 * path where it is a path the store takes (so `/media/<path>` links of a+ keep working), and makes
 * their smaller sizes (the avatar's thumbnail for avatars). A dry run only checks that they are there.
 */
export class MediaImport {
  readonly result: MediaResult = { copied: 0, missing: [], notImages: [] };
  private readonly done = new Map<string, string>();

  constructor(
    private readonly source: MediaSource,
    private readonly media: Media | null,
  ) {}

  async file(path: unknown, where: { model: string; pk: string }, kind: 'image' | 'avatar' = 'image'): Promise<string | null> {
    if (typeof path !== 'string' || !path) return null;
    const known = this.done.get(path);
    if (known !== undefined) return known;
    const data = await this.source.read(path);
    if (!data) {
      this.result.missing.push({ path, model: where.model, pk: where.pk });
      return null;
    }
    const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? 'bin';
    const stored = isMediaPath(path) ? path : `aplus/${sha256(data)}.${ext}`;
    this.done.set(path, stored);
    if (!this.media) return stored;
    await this.media.write(stored, data);
    this.result.copied++;
    try {
      if (kind === 'avatar') {
        const sharp = await loadSharp();
        await this.media.write(avatarThumbnailPath(stored), await sharp(data).resize(200, 200, { fit: 'cover', position: sharp.strategy.attention }).png().toBuffer());
      } else {
        await this.media.writeVariants(stored);
      }
    } catch {
      this.result.notImages.push(path);
    }
    return stored;
  }

  /**
   * The files rich texts link to, copied under the same path (so the old `/media/…` links in the
   * texts keep working); a missing one is reported like any other, a name the store does not take
   * is reported as not kept.
   */
  async embedded(tx: Tx): Promise<void> {
    for (const found of await embeddedPaths(tx)) {
      let path: string;
      try {
        path = decodeURIComponent(found.path);
      } catch {
        path = found.path;
      }
      if (this.done.has(path)) continue;
      if (!isMediaPath(path)) {
        (this.result.notKept ??= []).push({ ...found, path });
        continue;
      }
      await this.file(path, found, 'image');
    }
  }
}
