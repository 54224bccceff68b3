import { removeMedia, storeImage } from '../../media/images.js';

/** The "idea_image" alias: at least 600×400 (and within the limits of every image). */
export const IDEA_IMAGE_RULES = { minWidth: 600, minHeight: 400 };

/** Checks an uploaded idea image and stores it under mediaDir/ideas/images; returns the media-relative path. */
export const storeIdeaImage = (mediaDir: string, data: Buffer) => storeImage(mediaDir, 'ideas/images', data, IDEA_IMAGE_RULES);

/** Removes a stored idea image; a file that is already gone is fine. */
export const removeIdeaImage = (mediaDir: string, relative: string | null) => removeMedia(mediaDir, relative);
