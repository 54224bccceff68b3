import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

export const IDEA_IMAGE_MIN_WIDTH = 600;
export const IDEA_IMAGE_MIN_HEIGHT = 400;
const FORMATS: Record<string, string> = { png: 'png', jpeg: 'jpg', gif: 'gif' };

export class IdeaImageInvalid extends Error {}

/**
 * Checks an uploaded idea image (png, jpeg or gif, at least 600×400) and stores it under
 * mediaDir/ideas/images. Returns the media-relative path.
 */
export async function storeIdeaImage(mediaDir: string, data: Buffer): Promise<string> {
  let meta;
  try {
    meta = await sharp(data).metadata();
  } catch {
    throw new IdeaImageInvalid('Upload a valid image. The file you uploaded was either not an image or a corrupted image.');
  }
  const ext = meta.format ? FORMATS[meta.format] : undefined;
  if (!ext) throw new IdeaImageInvalid('Unsupported file format. Supported formats are png, jpeg, gif.');
  if ((meta.width ?? 0) < IDEA_IMAGE_MIN_WIDTH || (meta.height ?? 0) < IDEA_IMAGE_MIN_HEIGHT) {
    throw new IdeaImageInvalid(`Image must be at least ${IDEA_IMAGE_MIN_WIDTH} pixels wide and ${IDEA_IMAGE_MIN_HEIGHT} pixels tall.`);
  }
  const relative = `ideas/images/${randomUUID()}.${ext}`;
  const file = join(mediaDir, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
  return relative;
}

/** Removes a stored image; a file that is already gone is fine. */
export function removeIdeaImage(mediaDir: string, relative: string | null): void {
  if (relative && !relative.includes('..')) rmSync(join(mediaDir, relative), { force: true });
}
