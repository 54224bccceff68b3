import { formatDateTime } from '../i18n/dates.js';
import { t, tn } from '../i18n/index.js';
import type { PageContext } from './context.js';

/**
 * A machine-made summary as its readers see it: marked as made by a language model (which one,
 * when, from how many contributions), its paragraphs as plain text (the model's answer is never
 * taken as HTML).
 */
export function MachineSummary({ page, summary, heading }: { page: PageContext; summary: { text: string; model: string; created: Date; contributions: number }; heading: string }) {
  const { lang, timeZone } = page;
  return (
    <section class="machine-summary">
      <h3>{heading}</h3>
      <p class="help">
        <strong>{t(lang, 'Machine-made summary')}</strong>{' '}
        {tn(
          lang,
          'made by the language model %(model)s on %(date)s from %(count)s contribution or comment; it may be wrong or leave things out.',
          'made by the language model %(model)s on %(date)s from %(count)s contributions and comments; it may be wrong or leave things out.',
          summary.contributions,
          { model: summary.model, date: formatDateTime(summary.created, lang, timeZone) },
        )}
      </p>
      {summary.text.split(/\n\s*\n/).map((paragraph) => (
        <p>{paragraph.trim()}</p>
      ))}
    </section>
  );
}
