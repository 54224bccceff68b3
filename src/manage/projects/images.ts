import type { FieldErrors } from '../../http/errors.js';
import { type Lang, t } from '../../i18n/index.js';
import { ImageInvalid, type IngestedImage, ingestImage } from '../../media/images.js';
import type { Media } from '../../media/store.js';
import { PROJECT_IMAGES, type ProjectImageField } from './input.js';

const FIELDS = Object.keys(PROJECT_IMAGES) as ProjectImageField[];

/** The uploaded header and tile images through the one image ingest; nothing is written yet, so a refused form leaves no file. */
export async function ingestProjectImages(uploads: Partial<Record<string, Buffer>>, lang: Lang) {
  const images: Partial<Record<ProjectImageField, IngestedImage>> = {};
  const errors: FieldErrors = {};
  for (const field of FIELDS) {
    const upload = uploads[field];
    if (!upload) continue;
    try {
      images[field] = await ingestImage(upload, PROJECT_IMAGES[field].rules);
    } catch (error) {
      if (!(error instanceof ImageInvalid)) throw error;
      errors[field] = [t(lang, error.message)];
    }
  }
  return { images, errors };
}

/** Writes the ingested images with their smaller copies for `srcset`; returns their media paths by field. */
export async function writeProjectImages(media: Media, images: Partial<Record<ProjectImageField, IngestedImage>>) {
  const paths: Partial<Record<ProjectImageField, string>> = {};
  for (const field of FIELDS) {
    const image = images[field];
    if (!image) continue;
    paths[field] = await media.put(PROJECT_IMAGES[field].folder, image);
    await media.writeVariants(paths[field]);
  }
  return paths;
}

/**
 * The image columns of the basic settings' save, and the files it makes obsolete: an upload
 * replaces the stored image, "remove" (without an upload) clears it.
 */
export function projectImageChange(stored: { image: string | null; tileImage: string | null }, written: Partial<Record<ProjectImageField, string>>, values: Record<string, string>) {
  const column = (field: ProjectImageField, old: string | null) => {
    const path = written[field];
    if (path) return { value: path, obsolete: old };
    if (values[`${field}_clear`]) return { value: null, obsolete: old };
    return { value: undefined, obsolete: null };
  };
  const image = column('image', stored.image);
  const tile = column('tile_image', stored.tileImage);
  return { patch: { image: image.value, tileImage: tile.value }, obsolete: [image.obsolete, tile.obsolete] };
}
