import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadSharp, VARIANT_WIDTHS } from './images.js';

export { VARIANT_WIDTHS };

/**
 * Smaller copies of stored images for `srcset` (issue 22, item 12): 480 and 960 pixels wide, kept
 * under mediaDir/variants/w<width>/<the image's path>. Made at upload for the project images and
 * on the first request for any other (older) image. Stored images never change their content (each
 * upload gets a new random name), so their URLs and these are cached for a year.
 */
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

/** A stored image's media path as the upload code makes it: folders, a name, png/jpg/gif. */
export const isImagePath = (relative: string) => /^[\w-]+(\/[\w-]+)*\/[\w-]+\.(png|jpg|gif)$/.test(relative);

const variantFile = (mediaDir: string, relative: string, width: VariantWidth) => join(mediaDir, 'variants', `w${width}`, relative);

export const variantUrl = (relative: string, width: VariantWidth) => `/media/variants/w${width}/${relative}`;

/** The `srcset` of a stored image: its two smaller copies and the image itself (at most 2048 pixels wide). */
export const imageSrcset = (relative: string) => [...VARIANT_WIDTHS.map((w) => `${variantUrl(relative, w)} ${w}w`), `/media/${relative} 2048w`].join(', ');

/** Makes the copy of one width when it is missing; returns its file, or null when the image itself is gone. */
export async function ensureVariant(mediaDir: string, relative: string, width: VariantWidth): Promise<string | null> {
  const file = variantFile(mediaDir, relative, width);
  if (existsSync(file)) return file;
  const original = join(mediaDir, relative);
  if (!existsSync(original)) return null;
  mkdirSync(dirname(file), { recursive: true });
  const sharp = await loadSharp();
  await sharp(original, { animated: relative.endsWith('.gif') }).resize({ width, withoutEnlargement: true }).toFile(file);
  return file;
}

/** Makes every smaller copy of a freshly stored image. */
export async function writeVariants(mediaDir: string, relative: string): Promise<void> {
  for (const width of VARIANT_WIDTHS) await ensureVariant(mediaDir, relative, width);
}

