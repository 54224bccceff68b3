/** German catalogue: English message → German. Keep keys sorted. */
export const de: Record<string, string> = {
  '%(count)s day': '%(count)s Tag',
  '%(count)s days': '%(count)s Tage',
  '%(count)s hour': '%(count)s Stunde',
  '%(count)s hours': '%(count)s Stunden',
  '%(count)s minute': '%(count)s Minute',
  '%(count)s minutes': '%(count)s Minuten',
  '%(count)s second': '%(count)s Sekunde',
  '%(count)s seconds': '%(count)s Sekunden',
  '%(time_left)s remaining': '%(time_left)s verbleibend',
  Accepted: 'wird umgesetzt',
  'more than 1 year remaining': 'noch länger als 1 Jahr',
  'Participation ended. Read result.': 'Beteiligung beendet. Ergebnis lesen.',
  'Participation: from %(date)s': 'Teilnahme: ab %(date)s',
  Rejected: 'wird nicht umgesetzt',
  'Under consideration': 'wird geprüft',
  'unknown user': 'unbekannter Nutzer',
};
