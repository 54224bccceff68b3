import { formatDate } from '../i18n/dates.js';
import { type Lang, t, tn } from '../i18n/index.js';
import type { InsightDay, ProjectInsights } from '../core/insights/queries.js';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 48, right: 16, top: 12, bottom: 28 };

interface ChartSeries {
  key: 'participants' | 'contributions';
  label: string;
  /** Running total after each day. */
  values: number[];
}

/** Running totals per day: active participants, and contributions (ideas, comments, ratings). */
function cumulativeSeries(days: InsightDay[]): { participants: number[]; contributions: number[] } {
  let participants = 0;
  let contributions = 0;
  const result = { participants: [] as number[], contributions: [] as number[] };
  for (const d of days) {
    participants += d.participants;
    contributions += d.ideas + d.comments + d.ratings + d.votes;
    result.participants.push(participants);
    result.contributions.push(contributions);
  }
  return result;
}

const dayTime = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * §B17: participation over time as a server-rendered SVG line chart (no script): running totals
 * of active participants and contributions, the time axis proportional to the days.
 */
function ParticipationChart({ lang, days, id }: { lang: Lang; days: InsightDay[]; id: string }) {
  if (!days.length) return <p>{t(lang, 'No contributions yet.')}</p>;
  const totals = cumulativeSeries(days);
  const series: ChartSeries[] = [
    { key: 'contributions', label: t(lang, 'Contributions'), values: totals.contributions },
    { key: 'participants', label: t(lang, 'Active participants'), values: totals.participants },
  ];
  const max = Math.max(1, ...totals.contributions, ...totals.participants);
  const first = dayTime(days[0].day);
  const span = dayTime(days[days.length - 1].day) - first;
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (day: string) => PAD.left + (span ? ((dayTime(day) - first) / span) * innerWidth : innerWidth / 2);
  const y = (value: number) => PAD.top + innerHeight - (value / max) * innerHeight;
  const label = (day: string) => formatDate(new Date(dayTime(day)), lang, 'UTC');
  const last = days.length - 1;
  const summary = t(lang, 'From %(start)s to %(end)s: %(participants)s, %(contributions)s.', {
    start: label(days[0].day),
    end: label(days[last].day),
    participants: tn(lang, '%(count)s active participant', '%(count)s active participants', totals.participants[last]),
    contributions: tn(lang, '%(count)s contribution', '%(count)s contributions', totals.contributions[last]),
  });
  return (
    <figure class="insights-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} width="100%">
        <title id={`${id}-title`}>{t(lang, 'Participation over time')}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <line class="axis" x1={PAD.left} y1={PAD.top + innerHeight} x2={WIDTH - PAD.right} y2={PAD.top + innerHeight} />
        <line class="axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={PAD.top + innerHeight} />
        <text x={PAD.left - 6} y={PAD.top + 4} text-anchor="end">{max}</text>
        <text x={PAD.left - 6} y={PAD.top + innerHeight} text-anchor="end">0</text>
        <text x={PAD.left} y={HEIGHT - 8}>{label(days[0].day)}</text>
        {last > 0 && (
          <text x={WIDTH - PAD.right} y={HEIGHT - 8} text-anchor="end">
            {label(days[last].day)}
          </text>
        )}
        {series.map((s) => (
          <g class={`series series-${s.key}`}>
            <polyline fill="none" points={days.map((d, i) => `${x(d.day).toFixed(1)},${y(s.values[i]).toFixed(1)}`).join(' ')} />
            {days.map((d, i) => (
              <circle cx={x(d.day).toFixed(1)} cy={y(s.values[i]).toFixed(1)} r="3" />
            ))}
          </g>
        ))}
      </svg>
      <figcaption>
        {series.map((s) => (
          <span class={`legend series-${s.key}`}>{s.label}</span>
        ))}
      </figcaption>
    </figure>
  );
}

/** §B17.2: the numbers (ideas only where ideas are written) and the chart. */
export function InsightsBlock({ lang, insights, showIdeas, id = 'insights' }: { lang: Lang; insights: ProjectInsights; showIdeas: boolean; id?: string }) {
  const { totals } = insights;
  const numbers: [string, number][] = [
    ['Active participants', totals.participants],
    ...(showIdeas ? ([['Ideas', totals.ideas]] as [string, number][]) : []),
    ['Comments', totals.comments],
    ['Ratings', totals.ratings],
    ...(totals.votes ? ([['Poll answers', totals.votes]] as [string, number][]) : []),
  ];
  return (
    <section class="insights" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t(lang, 'Statistics')}</h2>
      <dl class="insights-numbers">
        {numbers.map(([name, value]) => (
          <div>
            <dt>{t(lang, name)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <ParticipationChart lang={lang} days={insights.days} id={`${id}-chart`} />
    </section>
  );
}
