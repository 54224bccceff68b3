import { loadSharp } from './images.js';

/**
 * Smaller copies of stored images for `srcset` (issue 22, item 12): 480 and 960 pixels wide, kept
 * under variants/w<width>/<the image's path> in the media store. Made at upload for the project
 * images and on the first request for any other (older) image. Stored images never change their
 * content (each path names one content), so their URLs and these are cached for a year.
 */
export const VARIANT_WIDTHS = [480, 960] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

/** A stored image's media path as the upload code makes it: folders, a name, png/jpg/gif. */
export const isImagePath = (relative: string) => /^[\w-]+(\/[\w-]+)*\/[\w-]+\.(png|jpg|gif)$/.test(relative);

export const variantPath = (relative: string, width: VariantWidth) => `variants/w${width}/${relative}`;

const variantUrl = (relative: string, width: VariantWidth) => `/media/${variantPath(relative, width)}`;

/**
 * The `srcset` of a stored image `width` pixels wide: its smaller copies that are narrower than it,
 * and the image itself at its own width. A copy is never made wider than its image, so a width
 * named here is always the width of the file it names (issue 36.12).
 */
export const imageSrcset = (relative: string, width: number) =>
  [...VARIANT_WIDTHS.filter((w) => w < width).map((w) => `${variantUrl(relative, w)} ${w}w`), `/media/${relative} ${width}w`].join(', ');

/** The copy of one width of a stored image's bytes, in its own format. */
export async function makeVariant(original: Buffer, relative: string, width: VariantWidth): Promise<Buffer> {
  const sharp = await loadSharp();
  const format = relative.endsWith('.gif') ? 'gif' : relative.endsWith('.png') ? 'png' : 'jpeg';
  return sharp(original, { animated: format === 'gif' }).resize({ width, withoutEnlargement: true }).toFormat(format).toBuffer();
}
