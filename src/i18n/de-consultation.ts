/** German texts of the first-week fixes (issue 22, items 7–15): spam check, back-office account care, finding projects, staff navigation. */
export const deConsultation: Record<string, string> = {
  // Spam check (src/http/challenge.ts, src/web/challenge.tsx)
  'Spam check: what is %(a)s plus %(b)s?': 'Spam-Schutz: Was ist %(a)s plus %(b)s?',
  'Leave this field empty (for robots only)': 'Dieses Feld leer lassen (nur für Roboter)',
  'The spam check was not passed. Please try again.': 'Der Spam-Schutz wurde nicht bestanden. Bitte versuchen Sie es noch einmal.',
  'Too many sign-ups from here. Please try again later.': 'Zu viele Registrierungen von hier. Bitte versuchen Sie es später noch einmal.',
};
