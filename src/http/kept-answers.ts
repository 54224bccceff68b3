import { tagOf } from './conditional.js';

/** A serialised JSON answer with its strong ETag; `body` null: there is nothing to answer (404). */
export interface KeptAnswer {
  body: string | null;
  tag: string;
}

interface Entry {
  stamp: string;
  answer: Promise<KeptAnswer>;
  chars: number;
}

/** Answers are computed for the whole second: time-dependent fields are at most this stale. */
export const ANSWER_TIME_STEP_MS = 1000;

/** What an entry costs besides its key and body, counted as characters (many small 404 entries stay bounded too). */
const ENTRY_OVERHEAD = 256;

/**
 * Serialised answers kept in this process, each under a data version (db/versions.ts) and the
 * whole second it was computed for. A request with the same key, version and second reuses body
 * and tag without loading or serialising; overlapping requests share one computation. The time
 * passed to `compute` is the start of the second, so the answer is exactly the one for that
 * instant, on every instance. At most `maxChars` characters of keys and bodies are kept; the entry
 * stored longest ago goes first (an entry in use is stored again each second), and an answer larger
 * than the bound is not kept.
 */
export class KeptAnswers {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(private readonly maxChars = 4_000_000) {}

  get(key: string, version: string, now: Date, compute: (at: Date) => Promise<string | null>): Promise<KeptAnswer> {
    const at = Math.floor(now.getTime() / ANSWER_TIME_STEP_MS) * ANSWER_TIME_STEP_MS;
    const stamp = `${version}@${at}`;
    const kept = this.entries.get(key);
    if (kept?.stamp === stamp) return kept.answer;
    const answer = compute(new Date(at)).then((body) => ({ body, tag: tagOf(body ?? '') }));
    const entry: Entry = { stamp, answer, chars: 0 };
    this.drop(key);
    this.entries.set(key, entry);
    answer.then(
      ({ body }) => this.entries.get(key) === entry && this.count(entry, ENTRY_OVERHEAD + key.length + (body?.length ?? 0)),
      () => this.entries.get(key) === entry && this.drop(key),
    );
    return answer;
  }

  private count(entry: Entry, chars: number): void {
    entry.chars = chars;
    this.chars += chars;
    for (const key of this.entries.keys()) {
      if (this.chars <= this.maxChars) break;
      this.drop(key);
    }
  }

  private drop(key: string): void {
    this.chars -= this.entries.get(key)?.chars ?? 0;
    this.entries.delete(key);
  }
}
