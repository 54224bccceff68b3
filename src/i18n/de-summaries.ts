/** German texts of the machine summaries (features/summaries, the dashboard's summary page, the project's summary page). Keep keys sorted. */
export const deSummaries: Record<string, string> = {
  'A language model (%(model)s, chosen by the operator) summarises the contributions everyone can read: their titles and the visible comments, without names. Nothing is shown publicly until you publish it.':
    'Ein Sprachmodell (%(model)s, vom Betreiber gewählt) fasst die Beiträge zusammen, die alle lesen können: ihre Titel und die sichtbaren Kommentare, ohne Namen. Öffentlich wird nichts, bevor Sie es veröffentlichen.',
  'Choose the project or one of its published modules.': 'Wählen Sie das Projekt oder eines seiner veröffentlichten Module.',
  'Machine summaries are off on this platform. The operator can turn them on by naming a language model (SUMMARIES_URL and SUMMARIES_MODEL).':
    'Maschinelle Zusammenfassungen sind auf dieser Plattform ausgeschaltet. Der Betreiber kann sie einschalten, indem er ein Sprachmodell angibt (SUMMARIES_URL und SUMMARIES_MODEL).',
  'Machine-made summary': 'Maschinell erstellte Zusammenfassung',
  'Machine-made summary of the contributions': 'Maschinell erstellte Zusammenfassung der Beiträge',
  'Make a summary': 'Zusammenfassung erstellen',
  'No summary has been published yet.': 'Es wurde noch keine Zusammenfassung veröffentlicht.',
  'Not published.': 'Nicht veröffentlicht.',
  'Nothing has changed since the last summary: it is kept.': 'Seit der letzten Zusammenfassung hat sich nichts geändert: Sie bleibt bestehen.',
  'Only the contributions of a published project can be summarised.': 'Nur die Beiträge eines veröffentlichten Projekts können zusammengefasst werden.',
  'Published.': 'Veröffentlicht.',
  Summary: 'Zusammenfassung',
  'Summary of the contributions': 'Zusammenfassung der Beiträge',
  'The contributions of a private project are not sent to a language model.': 'Die Beiträge eines privaten Projekts werden an kein Sprachmodell gesendet.',
  'The language model gave no summary (%(reason)s). Try again later.': 'Das Sprachmodell hat keine Zusammenfassung geliefert (%(reason)s). Versuchen Sie es später noch einmal.',
  'The summary has been made. Read it before you publish it.': 'Die Zusammenfassung wurde erstellt. Lesen Sie sie, bevor Sie sie veröffentlichen.',
  'The summary is no longer published.': 'Die Zusammenfassung ist nicht mehr veröffentlicht.',
  'The summary is published.': 'Die Zusammenfassung ist veröffentlicht.',
  'The whole project': 'Das ganze Projekt',
  'There are no public contributions to summarise yet.': 'Es gibt noch keine öffentlichen Beiträge, die zusammengefasst werden könnten.',
  'What to summarise': 'Was zusammengefasst werden soll',
  'made by the language model %(model)s on %(date)s from %(count)s contribution or comment; it may be wrong or leave things out.':
    'erstellt vom Sprachmodell %(model)s am %(date)s aus %(count)s Beitrag oder Kommentar; sie kann Fehler enthalten oder etwas auslassen.',
  'made by the language model %(model)s on %(date)s from %(count)s contributions and comments; it may be wrong or leave things out.':
    'erstellt vom Sprachmodell %(model)s am %(date)s aus %(count)s Beiträgen und Kommentaren; sie kann Fehler enthalten oder etwas auslassen.',
};
