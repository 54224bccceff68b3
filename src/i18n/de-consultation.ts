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
};
