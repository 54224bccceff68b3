/** German texts of guest participation (issue 34.4: "take part as a guest", the guest's registration, the badge, the dashboard's setting). Keep keys sorted. */
export const deGuests: Record<string, string> = {
  'A guest gives an e-mail address by creating an account.': 'Als Gast geben Sie eine E-Mail-Adresse an, indem Sie ein Konto anlegen.',
  'As a guest you take part without an account in projects that allow guests. This browser keeps your guest identity; you can create an account later and keep what you wrote.':
    'Als Gast machen Sie ohne Konto mit, in Projekten, die Gäste zulassen. Dieser Browser merkt sich Ihre Gast-Identität; Sie können später ein Konto anlegen und behalten, was Sie geschrieben haben.',
  'Continue as a guest': 'Als Gast fortfahren',
  Guest: 'Gast',
  'Guest: create an account': 'Gast: Konto anlegen',
  'Guests cannot take part in this project. Please create an account.': 'Gäste können in diesem Projekt nicht mitmachen. Bitte legen Sie ein Konto an.',
  'Guests may take part without an account': 'Gäste dürfen ohne Konto mitmachen',
  'In a public project, people may add ideas, comments and ratings as guests. Guests pass a spam check and can create an account later.':
    'In einem öffentlichen Projekt können Menschen als Gäste Ideen, Kommentare und Bewertungen abgeben. Gäste bestehen eine Spam-Prüfung und können später ein Konto anlegen.',
  'Take part as a guest': 'Als Gast mitmachen',
  'Too many guests from here. Please try again later.': 'Zu viele Gäste von hier. Bitte versuchen Sie es später erneut.',
  'You take part as a guest now.': 'Sie machen jetzt als Gast mit.',
  'You take part as a guest. Create an account to keep what you wrote and to log in from anywhere.':
    'Sie machen als Gast mit. Legen Sie ein Konto an, um zu behalten, was Sie geschrieben haben, und sich überall anmelden zu können.',
};
