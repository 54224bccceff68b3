import { removeMedia, storeImage } from '../../media/images.js';

/** adhocracy4's "questionimage" alias: at least 1500×500 (and within the limits of every image). */
const QUESTION_IMAGE_RULES = { minWidth: 1500, minHeight: 500 };

export const QUESTION_IMAGE_HELP = 'The image will be shown with the question. It must be at least 1500 pixels wide and 500 pixels high.';

/** Checks a question image and stores it under mediaDir/polls/images; returns the media-relative path. */
export const storePollImage = (mediaDir: string, data: Buffer) => storeImage(mediaDir, 'polls/images', data, QUESTION_IMAGE_RULES);

/** Removes stored question images; a file that is already gone is fine. */
export const removePollImage = (mediaDir: string, ...relative: (string | null)[]) => removeMedia(mediaDir, ...relative);
