/** German texts of the project statistics (features/insights). */
export const deInsights: Record<string, string> = {
  'Active participants': 'Aktive Teilnehmende',
  Contributions: 'Beiträge',
  '%(count)s active participant': '%(count)s aktive teilnehmende Person',
  '%(count)s active participants': '%(count)s aktive Teilnehmende',
  'From %(start)s to %(end)s: %(participants)s, %(contributions)s.': 'Vom %(start)s bis %(end)s: %(participants)s, %(contributions)s.',
  'No contributions yet.': 'Noch keine Beiträge.',
  'Participation over time': 'Beteiligung im Zeitverlauf',
  Ratings: 'Bewertungen',
  Statistics: 'Statistik',
};
