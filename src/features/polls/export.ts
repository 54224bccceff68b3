import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { pollAnswers, pollChoices, pollQuestions, polls, pollVotes } from './schema.js';
import { type Cell, exportFile } from '../moduletypes/contract.js';

/**
 * The poll export (adhocracy4's PollExportView, §5.4): one row per voter — registered voters first,
 * numbered "1", "2", …, then unregistered ones "Anon<n>" — with one column per open question
 * (the answer), per choice (1/0) and per "other" choice (its text). Confidential answers are
 * included: the export is for the poll's editors. A last column, Allmende's own, groups
 * unregistered ballots by the client address they came from ("A1", "A2", … numbered per export
 * from the stored keyed hashes; the address itself is never stored), so that ballots stuffed from
 * one address can be seen and discounted.
 */

interface Layout {
  columns: string[];
  /** Per column after voter_id: which answer fills it. */
  cells: ({ kind: 'open'; questionId: number } | { kind: 'choice'; choiceId: number } | { kind: 'other'; choiceId: number })[];
}

async function layout(db: DbOrTx, moduleId: number): Promise<Layout & { questionIds: number[] }> {
  const questions = await db
    .select({ id: pollQuestions.id, label: pollQuestions.label, isOpen: pollQuestions.isOpen })
    .from(pollQuestions)
    .innerJoin(polls, eq(polls.id, pollQuestions.pollId))
    .where(eq(polls.moduleId, moduleId))
    .orderBy(asc(pollQuestions.weight), asc(pollQuestions.id));
  const ids = questions.map((q) => q.id);
  const choices = ids.length
    ? await db.select({ id: pollChoices.id, questionId: pollChoices.questionId, label: pollChoices.label, isOther: pollChoices.isOtherChoice }).from(pollChoices).where(inArray(pollChoices.questionId, ids)).orderBy(asc(pollChoices.weight), asc(pollChoices.id))
    : [];
  const out: Layout = { columns: ['Voter ID'], cells: [] };
  for (const q of questions.filter((x) => x.isOpen)) {
    out.columns.push(`(q${q.id}) ${q.label}`);
    out.cells.push({ kind: 'open', questionId: q.id });
  }
  for (const q of questions.filter((x) => !x.isOpen)) {
    for (const c of choices.filter((x) => x.questionId === q.id)) {
      out.columns.push(`(q${q.id})${q.label} - (c${c.id}) ${c.label}`);
      out.cells.push({ kind: 'choice', choiceId: c.id });
      if (c.isOther) {
        out.columns.push(`(q${q.id})${q.label} - Other (specify)`);
        out.cells.push({ kind: 'other', choiceId: c.id });
      }
    }
  }
  out.columns.push('Address group');
  return { ...out, questionIds: ids };
}

async function* voterRows(db: DbOrTx, moduleId: number): AsyncIterable<Cell[][]> {
  const { cells, questionIds } = await layout(db, moduleId);
  if (!questionIds.length) return;
  const votes = await db
    .select({ choiceId: pollVotes.choiceId, creatorId: pollVotes.creatorId, token: pollVotes.voterToken, address: pollVotes.voterAddress, id: pollVotes.id, other: pollVotes.otherChoiceAnswer })
    .from(pollVotes)
    .innerJoin(pollChoices, eq(pollChoices.id, pollVotes.choiceId))
    .where(inArray(pollChoices.questionId, questionIds))
    .orderBy(asc(pollVotes.id));
  const answers = await db
    .select({ questionId: pollAnswers.questionId, creatorId: pollAnswers.creatorId, token: pollAnswers.voterToken, address: pollAnswers.voterAddress, id: pollAnswers.id, answer: pollAnswers.answer })
    .from(pollAnswers)
    .where(inArray(pollAnswers.questionId, questionIds))
    .orderBy(asc(pollAnswers.id));
  const keyOf = (row: { creatorId: number | null; token: string | null; id: number }, prefix: string) => (row.creatorId !== null ? `u${row.creatorId}` : row.token ? `t${row.token}` : `${prefix}${row.id}`);
  const voters = new Map<string, { choices: Map<number, string>; answers: Map<number, string>; address: string | null }>();
  const voter = (key: string, address: string | null) => {
    const known = voters.get(key);
    if (known) return known;
    const created = { choices: new Map<number, string>(), answers: new Map<number, string>(), address };
    voters.set(key, created);
    return created;
  };
  for (const v of votes) voter(keyOf(v, 'v'), v.address).choices.set(v.choiceId, v.other ?? '');
  for (const a of answers) voter(keyOf(a, 'a'), a.address).answers.set(a.questionId, a.answer);
  const groups = new Map<string, string>();
  const groupOf = (address: string | null) => (address ? (groups.get(address) ?? groups.set(address, `A${groups.size + 1}`).get(address) ?? '') : '');
  const keys = [...voters.keys()].sort((a, b) => Number(b.startsWith('u')) - Number(a.startsWith('u')));
  const rows: Cell[][] = keys.map((key, index) => {
    const found = voters.get(key) ?? { choices: new Map(), answers: new Map(), address: null };
    return [
      key.startsWith('u') ? String(index + 1) : `Anon${index + 1}`,
      ...cells.map((cell): Cell => {
        if (cell.kind === 'open') return found.answers.get(cell.questionId) ?? '';
        if (cell.kind === 'choice') return found.choices.has(cell.choiceId) ? 1 : 0;
        return found.choices.get(cell.choiceId) ?? '';
      }),
      groupOf(found.address),
    ];
  });
  for (let i = 0; i < rows.length; i += 500) yield rows.slice(i, i + 500);
}

export const pollExport = exportFile<Cell[]>({
  name: 'poll',
  heading: { en: 'Poll answers, one row per voter', de: 'Antworten der Umfrage, eine Zeile je Teilnehmende*r' },
  sheet: { title: 'Poll', columns: ['Voter ID'], cells: (row) => row },
  batches: voterRows,
  columns: async (db, moduleId) => (await layout(db, moduleId)).columns,
});
