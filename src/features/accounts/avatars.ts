import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_MIN_SIZE = 200;
const FORMATS: Record<string, string> = { png: 'png', jpeg: 'jpg', gif: 'gif' };

export class AvatarInvalid extends Error {}

/** The 200×200 "avatar" thumbnail of a stored avatar (media-relative path). */
export const avatarThumbnailPath = (avatar: string) => avatar.replace(/\.[a-z]+$/, '.avatar.png');

/** The static fallback avatar of a user: avatar-00…04 by pk % 5. */
export const avatarFallback = (userId: number, ext: 'svg' | 'png' = 'svg') => `/static/images/avatar-0${userId % 5}.${ext}`;

/**
 * Checks an uploaded avatar (png, jpeg or gif, at least 200×200, at most 5 MB), stores it under
 * mediaDir/users/images and makes its 200×200 thumbnail once. Returns the media-relative path.
 */
export async function storeAvatar(mediaDir: string, data: Buffer): Promise<string> {
  if (data.length > AVATAR_MAX_BYTES) throw new AvatarInvalid('The image must not be larger than 5 MB.');
  let meta;
  try {
    meta = await sharp(data).metadata();
  } catch {
    throw new AvatarInvalid('Upload a valid image. The file you uploaded was either not an image or a corrupted image.');
  }
  const ext = meta.format ? FORMATS[meta.format] : undefined;
  if (!ext) throw new AvatarInvalid('Unsupported file format. Supported formats are png, jpeg, gif.');
  if ((meta.width ?? 0) < AVATAR_MIN_SIZE || (meta.height ?? 0) < AVATAR_MIN_SIZE) {
    throw new AvatarInvalid('Image must be at least 200 pixels wide and 200 pixels tall.');
  }
  const relative = `users/images/${randomUUID()}.${ext}`;
  const file = join(mediaDir, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
  await sharp(data).resize(200, 200, { fit: 'cover', position: sharp.strategy.attention }).png().toFile(join(mediaDir, avatarThumbnailPath(relative)));
  return relative;
}

/** Removes a stored avatar and its thumbnail (after a write that did not happen). */
export function removeAvatar(mediaDir: string, relative: string): void {
  for (const path of [relative, avatarThumbnailPath(relative)]) rmSync(join(mediaDir, path), { force: true });
}
