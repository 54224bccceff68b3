import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

/** An uploaded image that breaks the rules; the message is for the uploader. */
export class ImageInvalid extends Error {}

export interface ImageRules {
  minWidth: number;
  minHeight: number;
  maxBytes: number;
}

/** The upload formats the platform takes, and the file ending each is stored with. */
const FORMATS: Record<string, string> = { png: 'png', jpeg: 'jpg', gif: 'gif' };

/**
 * Checks an upload (png, jpeg or gif, within the size rules) and stores it under
 * mediaDir/<folder>/ with a random name. Returns the media-relative path (served at /media/).
 */
export async function storeImage(mediaDir: string, folder: string, data: Buffer, rules: ImageRules): Promise<string> {
  if (data.length > rules.maxBytes) throw new ImageInvalid(`The image must not be larger than ${Math.round(rules.maxBytes / 1024 / 1024)} MB.`);
  let meta;
  try {
    meta = await sharp(data).metadata();
  } catch {
    throw new ImageInvalid('Upload a valid image. The file you uploaded was either not an image or a corrupted image.');
  }
  const ext = meta.format ? FORMATS[meta.format] : undefined;
  if (!ext) throw new ImageInvalid('Unsupported file format. Supported formats are png, jpeg, gif.');
  if ((meta.width ?? 0) < rules.minWidth || (meta.height ?? 0) < rules.minHeight) {
    throw new ImageInvalid(`Image must be at least ${rules.minWidth} pixels wide and ${rules.minHeight} pixels tall.`);
  }
  const relative = `${folder}/${randomUUID()}.${ext}`;
  const file = join(mediaDir, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
  return relative;
}

/** Removes stored media files; files already gone are fine, paths leaving the media folder are ignored. */
export function removeMedia(mediaDir: string, ...relative: (string | null)[]): void {
  for (const path of relative) {
    if (path && !path.includes('..')) rmSync(join(mediaDir, path), { force: true });
  }
}
