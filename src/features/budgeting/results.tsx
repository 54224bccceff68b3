import { euros, type Lang, t, tn } from '../../i18n/index.js';


export interface RankedProposal {
  id: number;
  name: string;
  budget: number;
  votes: number;
  rank: number;
  winner: boolean;
  path: string;
}

const ROW = 28;
const WIDTH = 640;
const LABEL = 220;
const PAD = 12;

/**
 * The votes per proposal as a server-rendered SVG bar chart (no script), as the statistics chart
 * is drawn (web/insights.tsx): one bar per proposal in rank order, winners marked, the numbers in
 * the title and description for screen readers and again in the table beside it.
 */
export function VoteChart({ lang, rows, id }: { lang: Lang; rows: RankedProposal[]; id: string }) {
  if (!rows.length) return null;
  const max = Math.max(1, ...rows.map((r) => r.votes));
  const height = rows.length * ROW + PAD * 2;
  const barSpace = WIDTH - LABEL - PAD * 2 - 40;
  const summary = rows.map((r) => tn(lang, '%(name)s: %(votes)s vote', '%(name)s: %(votes)s votes', r.votes, { name: r.name, votes: r.votes })).join('; ');
  const short = (name: string) => (name.length > 30 ? `${name.slice(0, 29)}…` : name);
  return (
    <figure class="vote-chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} width="100%">
        <title id={`${id}-title`}>{t(lang, 'Votes per proposal')}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {rows.map((row, i) => {
          const y = PAD + i * ROW;
          const width = Math.max(row.votes ? 2 : 0, (row.votes / max) * barSpace);
          return (
            <g class={row.winner ? 'bar winner' : 'bar'}>
              <text x={LABEL - 6} y={y + ROW / 2 + 4} text-anchor="end">
                {short(row.name)}
              </text>
              <rect x={LABEL} y={y + 4} width={width.toFixed(1)} height={ROW - 8} fill={row.winner ? '#1a7f37' : '#6b7280'} />
              <text x={LABEL + width + 6} y={y + ROW / 2 + 4}>
                {row.votes}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span class="legend winner">{t(lang, 'Green: within the budget (winner)')}</span>
      </figcaption>
    </figure>
  );
}

/** The result table: rank, proposal, budget, votes, winner. */
export function ResultTable({ lang, rows }: { lang: Lang; rows: RankedProposal[] }) {
  return (
    <table class="data-table result-table">
      <caption>{t(lang, 'Proposals ranked by votes')}</caption>
      <thead>
        <tr>
          <th scope="col">{t(lang, 'Rank')}</th>
          <th scope="col">{t(lang, 'Proposal')}</th>
          <th scope="col">{t(lang, 'Budget')}</th>
          <th scope="col">{t(lang, 'Votes')}</th>
          <th scope="col">{t(lang, 'Result')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr id={`result-${row.id}`} class={row.winner ? 'winner' : undefined}>
            <td>{row.rank}</td>
            <th scope="row">
              <a href={row.path}>{row.name}</a>
            </th>
            <td>{euros(lang, row.budget)}</td>
            <td>{row.votes}</td>
            <td>{row.winner ? <strong>{t(lang, 'Winner')}</strong> : t(lang, 'Not funded')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
