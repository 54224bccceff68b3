/** German texts of the first-week fixes (issue 22, items 7–15): spam check, back-office account care, finding projects, staff navigation. */
export const deConsultation: Record<string, string> = {
  // Spam check (src/http/challenge.ts, src/web/challenge.tsx)
  'Spam check: what is %(a)s plus %(b)s?': 'Spam-Schutz: Was ist %(a)s plus %(b)s?',
  'Leave this field empty (for robots only)': 'Dieses Feld leer lassen (nur für Roboter)',
  'The spam check was not passed. Please try again.': 'Der Spam-Schutz wurde nicht bestanden. Bitte versuchen Sie es noch einmal.',
  'Too many sign-ups from here. Please try again later.': 'Zu viele Registrierungen von hier. Bitte versuchen Sie es später noch einmal.',
  // Back-office: one account (features/backoffice/account-*.ts)
  'All users': 'Alle Nutzer*innen',
  'e-mail address confirmed': 'E-Mail-Adresse bestätigt',
  'e-mail address not confirmed': 'E-Mail-Adresse nicht bestätigt',
  'This account holds the content of deleted accounts. It cannot be changed.': 'Dieses Konto hält die Inhalte gelöschter Konten. Es kann nicht verändert werden.',
  'This is your own account: you cannot delete or deactivate it here, nor take away its superuser status.': 'Das ist Ihr eigenes Konto: Sie können es hier weder löschen noch deaktivieren, noch ihm den Superuser-Status nehmen.',
  'Correct the e-mail address': 'E-Mail-Adresse korrigieren',
  'New e-mail address': 'Neue E-Mail-Adresse',
  'The new address must be confirmed: a confirmation e-mail goes to it.': 'Die neue Adresse muss bestätigt werden: Eine Bestätigungs-E-Mail geht an sie.',
  'Save the address': 'Adresse speichern',
  'Send the confirmation e-mail again': 'Bestätigungs-E-Mail erneut senden',
  'Make superuser': 'Zum Superuser machen',
  'Remove superuser status': 'Superuser-Status entziehen',
  'Delete the account': 'Konto löschen',
  'Delete the account of %(username)s': 'Konto von %(username)s löschen',
  'This deletes the account as its owner can: the profile, ratings, follows and unsent e-mails go; comments stay as deleted so that replies stay; ideas others took part in stay without the name. This cannot be undone.':
    'Das löscht das Konto so, wie es seine Inhaberin kann: Profil, Bewertungen, gefolgte Projekte und ungesendete E-Mails werden gelöscht; Kommentare bleiben als gelöscht stehen, damit Antworten bleiben; Ideen, an denen andere teilgenommen haben, bleiben ohne Namen. Das kann nicht rückgängig gemacht werden.',
  'This is not possible for this account.': 'Das ist für dieses Konto nicht möglich.',
  'The confirmation e-mail has been sent.': 'Die Bestätigungs-E-Mail wurde gesendet.',
  'The address was corrected; a confirmation e-mail has been sent to it.': 'Die Adresse wurde korrigiert; eine Bestätigungs-E-Mail wurde an sie gesendet.',
  'The account has been deleted.': 'Das Konto wurde gelöscht.',
  // Finding projects: the start page's filter, the dashboard's non-public projects
  'Find projects': 'Projekte finden',
  Topic: 'Thema',
  Running: 'Laufend',
  Upcoming: 'Bevorstehend',
  Finished: 'Abgeschlossen',
  'Show all projects': 'Alle Projekte zeigen',
  '%(count)s project found': '%(count)s Projekt gefunden',
  '%(count)s projects found': '%(count)s Projekte gefunden',
  'No project matches this search.': 'Kein Projekt passt zu dieser Suche.',
  'Your projects that are not public': 'Ihre nicht öffentlichen Projekte',
  // The first run: the empty start page
  'Do you run this platform?': 'Betreiben Sie diese Plattform?',
  'Log in as its operator to begin.': 'Melden Sie sich als Betreiber*in an, um zu beginnen.',
  'Getting started': 'Erste Schritte',
  'Write the legal pages': 'Schreiben Sie die rechtlichen Seiten',
  '(imprint, data protection, terms of use, netiquette): the footer and the sign-up form link them.': '(Impressum, Datenschutz, Nutzungsbedingungen, Netiquette): Die Fußzeile und das Registrierungsformular verlinken sie.',
  'Create an organisation': 'Legen Sie eine Organisation an',
  'and appoint its initiators (they need an account: they register first).': 'und ernennen Sie ihre Initiator*innen (sie brauchen ein Konto: Sie registrieren sich zuerst).',
  'The initiators describe the organisation and create, fill in and publish the first project in its dashboard. It appears here.': 'Die Initiator*innen beschreiben die Organisation und legen im Dashboard das erste Projekt an, füllen es aus und veröffentlichen es. Es erscheint dann hier.',
  'Check the e-mails': 'Prüfen Sie die E-Mails',
  'that the platform sends (confirmations, invitations): without SMTP_URL they stay in the outbox.': 'die die Plattform sendet (Bestätigungen, Einladungen): Ohne SMTP_URL bleiben sie im Postausgang.',
  // Staff navigation
  'API documentation': 'API-Dokumentation',
  // Traps for initiators
  'Copy of %(name)s': 'Kopie von %(name)s',
  'Unpublish the running project?': 'Laufendes Projekt zurückziehen?',
  'Participation in "%(project)s" is running. Unpublished, the project is a draft again: participants can no longer see it or take part until it is published again.':
    'Die Beteiligung an „%(project)s“ läuft. Zurückgezogen ist das Projekt wieder ein Entwurf: Teilnehmende können es nicht mehr sehen und sich nicht mehr beteiligen, bis es wieder veröffentlicht wird.',
  // E-mails: appointments
  'You are now an initiator of %(organisation)s': 'Sie sind jetzt Initiator*in von %(organisation)s',
  'Hello %(name)s,\n\n%(actor)s has made you an initiator of %(organisation)s. You can now create, publish and manage its projects in the dashboard: %(url)s':
    'Hallo %(name)s,\n\n%(actor)s hat Sie zur Initiator*in von %(organisation)s gemacht. Sie können jetzt im Dashboard ihre Projekte anlegen, veröffentlichen und verwalten: %(url)s',
  'You now moderate the project %(project)s': 'Sie moderieren jetzt das Projekt %(project)s',
  'Hello %(name)s,\n\nyou now moderate the project "%(project)s" of %(organisation)s. New comments and reports wait for you in your moderation queue: %(url)s':
    'Hallo %(name)s,\n\nSie moderieren jetzt das Projekt „%(project)s“ von %(organisation)s. Neue Kommentare und Meldungen warten in Ihrer Moderationsübersicht auf Sie: %(url)s',
  // Accessibility
  '%(page)s of Allmende': '%(page)s von Allmende',
};
