/** German texts of the project statistics (features/insights). */
export const deInsights: Record<string, string> = {
  'Active participants': 'Aktive Teilnehmende',
  Contributions: 'Beiträge',
  'From %(start)s to %(end)s: %(participants)s active participants, %(contributions)s contributions.':
    'Vom %(start)s bis %(end)s: %(participants)s aktive Teilnehmende, %(contributions)s Beiträge.',
  'No contributions yet.': 'Noch keine Beiträge.',
  'Participation over time': 'Beteiligung im Zeitverlauf',
  Ratings: 'Bewertungen',
  Statistics: 'Statistik',
};
