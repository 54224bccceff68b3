import type { Media } from '../../media/store.js';

/** adhocracy4's "questionimage" alias: at least 1500×500 (and within the limits of every image). */
const QUESTION_IMAGE_RULES = { minWidth: 1500, minHeight: 500 };

export const QUESTION_IMAGE_HELP = 'The image will be shown with the question. It must be at least 1500 pixels wide and 500 pixels high.';

/** Checks a question image and stores it under polls/images; returns the media path. */
export const storePollImage = (media: Media, data: Buffer) => media.storeImage('polls/images', data, QUESTION_IMAGE_RULES);

/** Removes stored question images no row names any more; a file that is already gone is fine. */
export const removePollImage = (media: Media, ...relative: (string | null)[]) => media.remove(...relative);
