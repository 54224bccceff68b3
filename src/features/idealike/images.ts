import type { Media } from '../../media/store.js';

/** The "idea_image" alias: at least 600×400 (and within the limits of every image). */
const IDEA_IMAGE_RULES = { minWidth: 600, minHeight: 400 };

/** Checks an uploaded idea image and stores it under ideas/images; returns the media path. */
export const storeIdeaImage = (media: Media, data: Buffer) => media.storeImage('ideas/images', data, IDEA_IMAGE_RULES);

/** Removes a stored idea image no row names any more; a file that is already gone is fine. */
export const removeIdeaImage = (media: Media, relative: string | null) => media.remove(relative);
