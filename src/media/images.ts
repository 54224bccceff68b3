/** An uploaded image that breaks the rules; the message is for the uploader. */
export class ImageInvalid extends Error {}

export interface ImageRules {
  minWidth: number;
  minHeight: number;
  /** At most this many pixels wide and tall (both or neither). */
  max?: { width: number; height: number };
  /** As wide as tall, give or take SQUARE_TOLERANCE of the longer side. */
  square?: boolean;
}

/** How far a "square" image may be off: 1 % of its longer side (a crop that lost a pixel row still passes). */
const SQUARE_TOLERANCE = 0.01;

/**
 * The limits every uploaded image meets (docs/security.md lists them). An upload larger than
 * `maxBytes`, or whose header announces more than `maxPixels` pixels (all frames together), is
 * refused before its pixels are decoded (decompression bombs); what is kept is at most
 * `maxSide` pixels wide and tall.
 */
export const IMAGE_LIMITS = { maxBytes: 5 * 1024 * 1024, maxPixels: 50_000_000, maxSide: 2048 };

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);
const CORRUPT = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

/** The upload formats the platform takes, and the file ending each is stored with. */
const FORMATS: Record<string, string> = { png: 'png', jpeg: 'jpg', gif: 'gif' };

/** An image as it is stored: decoded, turned upright, downscaled, without metadata. */
export interface IngestedImage {
  data: Buffer;
  ext: string;
}

/** sharp (libvips, ≈ 20 MB resident) is loaded with the first image, not at start: most requests never carry one. */
export const loadSharp = async () => (await import('sharp')).default;

/**
 * The one ingest of every uploaded image: png, jpeg or gif within IMAGE_LIMITS and `rules`. The
 * image is decoded completely (a truncated or corrupt file is refused), turned upright by its EXIF
 * orientation, downscaled to IMAGE_LIMITS.maxSide and re-encoded in its own format; re-encoding
 * drops every metadata block (EXIF, GPS, XMP, comments). Nothing is written.
 */
export async function ingestImage(data: Buffer, rules: ImageRules): Promise<IngestedImage> {
  const sharp = await loadSharp();
  if (data.length > IMAGE_LIMITS.maxBytes) throw new ImageInvalid(`The image must not be larger than ${megabytes(IMAGE_LIMITS.maxBytes)} MB.`);
  let meta;
  try {
    meta = await sharp(data).metadata();
  } catch {
    throw new ImageInvalid(CORRUPT);
  }
  const ext = meta.format ? FORMATS[meta.format] : undefined;
  if (!ext || !meta.format) throw new ImageInvalid('Unsupported file format. Supported formats are png, jpeg, gif.');
  const { width, height } = meta.autoOrient;
  if (width * height * (meta.pages ?? 1) > IMAGE_LIMITS.maxPixels) {
    throw new ImageInvalid(`The image must not have more than ${IMAGE_LIMITS.maxPixels / 1_000_000} million pixels.`);
  }
  if (width < rules.minWidth || height < rules.minHeight) {
    throw new ImageInvalid(`Image must be at least ${rules.minWidth} pixels wide and ${rules.minHeight} pixels tall.`);
  }
  if (rules.max && (width > rules.max.width || height > rules.max.height)) {
    throw new ImageInvalid(`Image must be at most ${rules.max.width} pixels wide and ${rules.max.height} pixels tall.`);
  }
  if (rules.square && Math.abs(width - height) > Math.max(width, height) * SQUARE_TOLERANCE) {
    throw new ImageInvalid('The image must be square: as wide as it is tall.');
  }
  try {
    const output = await sharp(data, { animated: meta.format === 'gif', failOn: 'truncated', limitInputPixels: IMAGE_LIMITS.maxPixels })
      .autoOrient()
      .resize({ width: IMAGE_LIMITS.maxSide, height: IMAGE_LIMITS.maxSide, fit: 'inside', withoutEnlargement: true })
      .toFormat(meta.format, meta.format === 'jpeg' ? { quality: 85 } : {})
      .toBuffer();
    return { data: output, ext };
  } catch {
    throw new ImageInvalid(CORRUPT);
  }
}

/** The 200×200 "avatar" thumbnail beside a stored image (media path); removed with the image. */
export const thumbnailPath = (path: string) => path.replace(/\.[a-z]+$/, '.avatar.png');
