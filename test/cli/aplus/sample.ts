import { fileURLToPath } from 'node:url';

/** The sample adhocracy+ installation (dumps, media, users, old links): ../shared/aplus-install beside the checkout, or APLUS_SAMPLE. */
export const APLUS_SAMPLE = process.env.APLUS_SAMPLE ?? fileURLToPath(new URL('../../../../shared/aplus-install', import.meta.url));
