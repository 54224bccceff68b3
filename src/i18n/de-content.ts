/** German texts of content limits, image checks and the privacy pages (issue 11). Keep keys sorted. */
export const deContent: Record<string, string> = {
  'Null characters are not allowed.': 'Null-Zeichen sind nicht erlaubt.',
};
