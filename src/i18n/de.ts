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
  // Notices (mail/notices.ts)
  'A contribution was reported in project %(project)s': 'Ein Beitrag im Projekt %(project)s wurde gemeldet',
  'Feedback from the moderation on your comment': 'Feedback der Moderation zu Ihrem Kommentar',
  'Hello %(name)s,\n\n%(actor)s commented on your contribution in the project "%(project)s":\n\n%(text)s\n\nView the comment: %(url)s':
    'Hallo %(name)s,\n\n%(actor)s hat Ihren Beitrag im Projekt „%(project)s“ kommentiert:\n\n%(text)s\n\nZum Kommentar: %(url)s',
  'Hello %(name)s,\n\n%(actor)s replied to your comment in the project "%(project)s":\n\n%(text)s\n\nView the reply: %(url)s':
    'Hallo %(name)s,\n\n%(actor)s hat auf Ihren Kommentar im Projekt „%(project)s“ geantwortet:\n\n%(text)s\n\nZur Antwort: %(url)s',
  'Hello %(name)s,\n\na contribution in the project "%(project)s" was reported with this message:\n\n%(text)s\n\nView the reported contribution: %(url)s':
    'Hallo %(name)s,\n\nein Beitrag im Projekt „%(project)s“ wurde mit dieser Nachricht gemeldet:\n\n%(text)s\n\nZum gemeldeten Beitrag: %(url)s',
  'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has blocked your comment because it breaks the discussion rules. It is no longer shown in the discussion.\n\nYour comment: %(text)s\n\n%(url)s':
    'Hallo %(name)s,\n\ndie Moderation des Projekts „%(project)s“ hat Ihren Kommentar blockiert, weil er gegen die Diskussionsregeln verstößt. Er wird in der Diskussion nicht mehr angezeigt.\n\nIhr Kommentar: %(text)s\n\n%(url)s',
  'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has given feedback on your comment:\n\n%(text)s\n\nView the comment: %(url)s':
    'Hallo %(name)s,\n\ndie Moderation des Projekts „%(project)s“ hat Ihnen Feedback zu Ihrem Kommentar gegeben:\n\n%(text)s\n\nZum Kommentar: %(url)s',
  'New reply to your comment in project %(project)s': 'Neue Antwort auf Ihren Kommentar im Projekt %(project)s',
  'Reaction to your contribution in project %(project)s': 'Reaktion auf Ihren Beitrag im Projekt %(project)s',
  'Your comment was blocked': 'Ihr Kommentar wurde blockiert',
};
