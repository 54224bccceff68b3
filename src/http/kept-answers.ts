import { type Coding, encode, tagOf } from './conditional.js';

/** A serialised JSON answer with its strong ETag; `body` null: there is nothing to answer (404). */
export interface KeptAnswer<Note = undefined> {
  body: string | null;
  tag: string;
  /** What the computation said about its answer besides the body (web/page-keeping.ts: the counts it shows). */
  note?: Note;
  /** The body in a content-coding: encoded on the first demand, then kept with the answer. */
  coded: (coding: Coding) => Promise<Buffer>;
}

interface Entry<Note> {
  stamp: string;
  answer: Promise<KeptAnswer<Note>>;
  /** The note of the answer once computed, or else of the entry it replaced. */
  note?: Note;
  codings: Map<Coding, Promise<Buffer>>;
  size: number;
}

/** Answers are computed for the whole second: time-dependent fields are at most this stale. */
const ANSWER_TIME_STEP_MS = 1000;

/** What an entry costs besides its key and body, counted as characters (many small 404 entries stay bounded too). */
const ENTRY_OVERHEAD = 256;

/**
 * Serialised answers kept in this process, each under a data version (db/versions.ts) and the
 * whole second it was computed for. A request with the same key, version and second reuses body
 * and tag without loading or serialising; overlapping requests share one computation. The body in
 * a content-coding is encoded once per entry and coding, when first asked for (overlapping
 * requests share it too). The time passed to `compute` is the start of the second, so the answer
 * is exactly the one for that instant, on every instance. At most `maxSize` characters of keys and
 * bodies plus bytes of coded bodies are kept; the entry stored longest ago goes first (an entry in
 * use is stored again each second), and an answer larger than the bound is not kept.
 */
export class KeptAnswers<Note = undefined> {
  private readonly entries = new Map<string, Entry<Note>>();
  private size = 0;

  constructor(private readonly maxSize = 4_000_000) {}

  /** Drops every answer (http/process-memory.ts). */
  forget(): void {
    this.entries.clear();
    this.size = 0;
  }

  get(key: string, version: string, now: Date, compute: (at: Date) => Promise<string | null | { body: string | null; note: Note }>): Promise<KeptAnswer<Note>> {
    const at = Math.floor(now.getTime() / ANSWER_TIME_STEP_MS) * ANSWER_TIME_STEP_MS;
    const stamp = `${version}@${at}`;
    const kept = this.entries.get(key);
    if (kept?.stamp === stamp) return kept.answer;
    const codings = new Map<Coding, Promise<Buffer>>();
    const answer = compute(new Date(at)).then((computed) => {
      const { body, note } = computed === null || typeof computed === 'string' ? { body: computed, note: undefined } : computed;
      entry.note = note;
      return { body, note, tag: tagOf(body ?? ''), coded: (coding: Coding) => this.coded(key, entry, body ?? '', coding) };
    });
    const entry: Entry<Note> = { stamp, answer, codings, size: 0, note: kept?.note };
    this.drop(key);
    this.entries.set(key, entry);
    answer.then(
      ({ body }) => this.count(key, entry, ENTRY_OVERHEAD + key.length + (body?.length ?? 0)),
      () => this.entries.get(key) === entry && this.drop(key),
    );
    return answer;
  }

  /** The note of the answer kept for the key, whatever its stamp (while one is computed, the note of the one before). */
  noteOf(key: string): Note | undefined {
    return this.entries.get(key)?.note;
  }

  private coded(key: string, entry: Entry<Note>, body: string, coding: Coding): Promise<Buffer> {
    const kept = entry.codings.get(coding);
    if (kept) return kept;
    const coded = encode(body, coding);
    entry.codings.set(coding, coded);
    coded.then(
      (bytes) => this.count(key, entry, bytes.length),
      () => entry.codings.delete(coding),
    );
    return coded;
  }

  /** Adds to the size of an entry still kept, then drops the entries stored longest ago while above the bound. */
  private count(key: string, entry: Entry<Note>, size: number): void {
    if (this.entries.get(key) !== entry) return;
    entry.size += size;
    this.size += size;
    for (const oldest of this.entries.keys()) {
      if (this.size <= this.maxSize) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    this.size -= this.entries.get(key)?.size ?? 0;
    this.entries.delete(key);
  }
}
