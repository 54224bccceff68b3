import { join } from 'node:path';
import sharp from 'sharp';
import { removeMedia, storeImage } from '../../media/images.js';

/** The "avatar" image alias: at least 200×200, at most 5 MB. */
export const AVATAR_RULES = { minWidth: 200, minHeight: 200, maxBytes: 5 * 1024 * 1024 };

/** The 200×200 "avatar" thumbnail of a stored avatar (media-relative path). */
export const avatarThumbnailPath = (avatar: string) => avatar.replace(/\.[a-z]+$/, '.avatar.png');

/** The static fallback avatar of a user: avatar-00…04 by pk % 5. */
export const avatarFallback = (userId: number, ext: 'svg' | 'png' = 'svg') => `/static/images/avatar-0${userId % 5}.${ext}`;

/** Checks and stores an uploaded avatar under mediaDir/users/images and makes its 200×200 thumbnail once. */
export async function storeAvatar(mediaDir: string, data: Buffer): Promise<string> {
  const relative = await storeImage(mediaDir, 'users/images', data, AVATAR_RULES);
  await sharp(data).resize(200, 200, { fit: 'cover', position: sharp.strategy.attention }).png().toFile(join(mediaDir, avatarThumbnailPath(relative)));
  return relative;
}

/** Removes a stored avatar and its thumbnail (after a write that did not happen). */
export function removeAvatar(mediaDir: string, relative: string): void {
  removeMedia(mediaDir, relative, avatarThumbnailPath(relative));
}
