/** Something an app keeps in this process that came from its database, and can drop. */
interface Forgettable {
  forget(): void;
}

/**
 * What an app keeps in this process besides its database's rows: kept pages and answers (under
 * data versions), the footer's links, the login and rate-limit counters kept in memory, the start
 * page's "the setup is over". Each keeper registers here when it is made; `forget()` drops them all
 * at once, for a database replaced under the running app, whose versions may then repeat with other
 * rows behind them (the tests reset their database between tests under one app: docs/testing.md).
 */
export class ProcessMemory {
  private readonly kept: Forgettable[] = [];

  /** Registers `thing` with what `forget()` drops, and returns it. */
  keep<T extends Forgettable>(thing: T): T {
    this.kept.push(thing);
    return thing;
  }

  forget(): void {
    for (const thing of this.kept) thing.forget();
  }
}
