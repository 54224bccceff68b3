import { ingestImage, loadSharp, thumbnailPath } from '../../media/images.js';
import type { Media } from '../../media/store.js';

/** The "avatar" image alias: at least 200×200 (and within the limits of every image). */
const AVATAR_RULES = { minWidth: 200, minHeight: 200 };

/** The 200×200 "avatar" thumbnail of a stored avatar (media-relative path). */
export const avatarThumbnailPath = thumbnailPath;

/** The static fallback avatar of a user: avatar-00…04 by pk % 5. */
export const avatarFallback = (userId: number, ext: 'svg' | 'png' = 'svg') => `/static/images/avatar-0${userId % 5}.${ext}`;

/** The URL of a user's avatar: the 200×200 thumbnail when one was uploaded, else the fallback by pk % 5. */
export const avatarUrl = (user: { id: number; avatar: string | null }) => (user.avatar ? `/media/${avatarThumbnailPath(user.avatar)}` : avatarFallback(user.id));

/**
 * A user's pictures as the app gets them: the uploaded avatar (or null) and the fallback, a PNG
 * because React Native cannot draw SVG; `absolute` turns a path into an absolute URL.
 */
export function appAvatarUrls(user: { id: number; avatar: string | null }, absolute: (path: string) => string) {
  return { user_image: user.avatar ? absolute(`/media/${user.avatar}`) : null, user_image_fallback: absolute(avatarFallback(user.id, 'png')) };
}

/** Checks and stores an uploaded avatar under users/images and makes its 200×200 thumbnail once. */
export async function storeAvatar(media: Media, data: Buffer): Promise<string> {
  // Both are made before anything is written: a refused upload leaves no file.
  const image = await ingestImage(data, AVATAR_RULES);
  const sharp = await loadSharp();
  const thumbnail = await sharp(image.data).resize(200, 200, { fit: 'cover', position: sharp.strategy.attention }).png().toBuffer();
  const relative = await media.put('users/images', image);
  await media.write(avatarThumbnailPath(relative), thumbnail);
  return relative;
}

/** Removes a stored avatar and its thumbnail when no row names it (after a write that did not happen, or a replaced avatar). */
export const removeAvatar = (media: Media, relative: string) => media.remove(relative);
