/** German texts of the module exports (features/exports, projectdashboard/export-*). */
export const deExports: Record<string, string> = {
  Comment: 'Kommentar',
  'Comment count': 'Anzahl Kommentare',
  Created: 'Erstellt',
  Creator: 'Verfasser*in',
  CSV: 'CSV',
  'Excel (xlsx)': 'Excel (xlsx)',
  Export: 'Export',
  Feedback: 'Feedback',
  ID: 'ID',
  Ideas: 'Ideen',
  Link: 'Link',
  'Negative ratings': 'Negative Bewertungen',
  'Positive ratings': 'Positive Bewertungen',
  'Reference No.': 'Referenznummer',
  'Reply to Comment': 'Antwort auf Kommentar',
  'Reply to Reference': 'Antwort auf Referenznummer',
  'The files hold every contribution of the module at the moment of download. Dates are given with their time zone offset.':
    'Die Dateien enthalten alle Beiträge des Moduls zum Zeitpunkt des Herunterladens. Datumsangaben stehen mit ihrer Zeitzonenverschiebung.',
};
