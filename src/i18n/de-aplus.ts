/** German texts of what adhocracy+ installations bring along (issue 35): contact details, feedback givers, supporting organisations, member details, newsletter groups and drafts, summary feedback. */
export const deAplus: Record<string, string> = {
  "The author's contact details": 'Kontaktdaten der Verfasserin oder des Verfassers',
  'the author agreed to be contacted': 'mit einer Kontaktaufnahme einverstanden',
  'the author did not agree to be contacted': 'einer Kontaktaufnahme nicht zugestimmt',
  'Official feedback last given': 'Offizielle Rückmeldung zuletzt gegeben',
  'Image of the topic %(name)s': 'Bild des Themas %(name)s',
  'member number %(number)s': 'Mitgliedsnummer %(number)s',
  'A supporting organisation (it supports the platform; marked on its page)': 'Fördernde Organisation (sie unterstützt die Plattform; auf ihrer Seite vermerkt)',
  'Supporting organisation': 'Fördernde Organisation',
  "The project's followers": 'Die Follower des Projekts',
  "The organisation's followers": 'Die Follower der Organisation',
  "The organisation's initiators": 'Die Initiator*innen der Organisation',
  'Every user of the platform': 'Alle Nutzer*innen der Plattform',
  Receivers: 'Empfänger*innen',
  'Draft, never sent': 'Entwurf, nie versandt',
  'write it as a new newsletter': 'als neuen Newsletter schreiben',
  'Readers found it helpful: %(helpful)s, not helpful: %(unhelpful)s.': 'Hilfreich fanden es %(helpful)s Lesende, nicht hilfreich %(unhelpful)s.',
};
