import { formatDate } from '../i18n/dates.js';
import { type Lang, t } from '../i18n/index.js';
import type { PageContext } from './context.js';
import { phaseIsActive, phaseIsFuture } from '../core/modules/phases.js';
import { phaseType } from '../core/modules/registry.js';
import type { PhaseDates } from '../core/projects/rules.js';
import type { ModulePhase } from '../core/modules/queries.js';

/** A phase's name, or its type's (the registry's), or just "Phase". */
export const phaseName = (lang: Lang, phase: { name: string; type: string }) => phase.name || (phaseType(phase.type)?.name[lang] ?? t(lang, 'Phase'));

/** §A4.7: when nothing runs, when participation starts, continues or ended. Null while a phase is active. */
function phaseInfo(lang: Lang, timeZone: string, phases: PhaseDates[], now: Date): string | null {
  if (phases.some((p) => phaseIsActive(p, now))) return null;
  const dated = phases.filter((p) => p.startDate && p.endDate);
  const next = dated.filter((p) => phaseIsFuture(p, now)).sort((a, b) => Number(a.startDate) - Number(b.startDate))[0];
  const started = dated.some((p) => p.startDate && p.startDate <= now);
  const date = (d: Date) => formatDate(d, lang, timeZone);
  if (next?.startDate) return t(lang, started ? 'Participation is not possible at the moment. It continues on %(date)s.' : 'Participation is not possible at the moment. It starts on %(date)s.', { date: date(next.startDate) });
  const ended = dated.map((p) => p.endDate).filter((d): d is Date => d !== null).sort((a, b) => Number(b) - Number(a))[0];
  if (ended) return t(lang, 'Participation is not possible at the moment. It ended on %(date)s.', { date: date(ended) });
  return t(lang, 'Participation is not possible at the moment.');
}

/** The phases that are over or running, each with its dates and description (the active one marked), and the phase info. */
export function PhaseList({ page, phases, now }: { page: PageContext; phases: ModulePhase[]; now: Date }) {
  const { lang, timeZone } = page;
  const info = phaseInfo(lang, timeZone, phases, now);
  return (
    <>
      {info && (
        <p class="notice" role="note">
          {info}
        </p>
      )}
      {phases.length > 0 && (
        <ol class="phases" aria-label={t(lang, 'Phases')}>
          {phases.map((phase) => {
            const active = phaseIsActive(phase, now);
            return (
              <li aria-current={active ? 'step' : undefined}>
                <strong>{phaseName(lang, phase)}</strong>
                {active && <span class="badge">{t(lang, 'active')}</span>}
                {phase.startDate && phase.endDate && (
                  <span>
                    {' '}
                    {formatDate(phase.startDate, lang, timeZone)} – {formatDate(phase.endDate, lang, timeZone)}
                  </span>
                )}
                {phase.description && <p>{phase.description}</p>}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
