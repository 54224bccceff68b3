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
}
