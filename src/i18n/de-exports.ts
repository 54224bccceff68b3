/** German texts of the module exports (features/exports, projectdashboard/export-*) and the project images of the basic settings. */
export const deExports: Record<string, string> = {
  'Comment count': 'Anzahl Kommentare',
  Created: 'Erstellt',
  Creator: 'Verfasser*in',
  CSV: 'CSV',
  'Excel (xlsx)': 'Excel (xlsx)',
  Export: 'Export',
  Feedback: 'Feedback',
  ID: 'ID',
  Link: 'Link',
  'Negative ratings': 'Negative Bewertungen',
  'Positive ratings': 'Positive Bewertungen',
  'Reference No.': 'Referenznummer',
  'Reply to Comment': 'Antwort auf Kommentar',
  'Reply to Reference': 'Antwort auf Referenznummer',
  'The files hold every contribution of the module at the moment of download. Dates are given with their time zone offset.':
    'Die Dateien enthalten alle Beiträge des Moduls zum Zeitpunkt des Herunterladens. Datumsangaben stehen mit ihrer Zeitzonenverschiebung.',
  'Alternative text': 'Alternativtext',
  'Describes the image for people who cannot see it. Required when there is an image.':
    'Beschreibt das Bild für Menschen, die es nicht sehen können. Erforderlich, wenn es ein Bild gibt.',
  'Please add an alternative text for this image.': 'Bitte fügen Sie einen Alternativtext für dieses Bild hinzu.',
  'Please add copyright information.': 'Bitte geben Sie Copyright-Informationen an.',
  'PNG, JPEG or GIF, at most 5 MB, at least %(width)s × %(height)s pixels.': 'PNG, JPEG oder GIF, höchstens 5 MB, mindestens %(width)s × %(height)s Pixel.',
  'Required when there is an image.': 'Erforderlich, wenn es ein Bild gibt.',
  'Tile image': 'Kachelbild',
  'Export the contributions': 'Beiträge exportieren',
  'Export the contributions of %(module)s': 'Beiträge von %(module)s exportieren',
};
