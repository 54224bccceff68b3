import '../module-types.js';
import { SingleBar } from 'cli-progress';
import { desc, sql } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { type Database, DatabaseInUse, openDatabase } from '../db/client.js';
import { outbox, users } from '../db/schema/index.js';
import { hashPassword } from '../core/users/passwords.js';
import { isValidEmail, usernameError } from '../core/users/rules.js';
import { afterMigrate } from '../features/moduletypes/contract.js';
import { createSystemActions } from '../core/actions/system.js';
import { isLang, LANGUAGES } from '../i18n/index.js';
import { moveMedia } from '../media/move.js';
import { type MediaStoreKind, openMedia, openMediaFiles } from '../media/store.js';
import { deleteExpiredGuests } from '../core/users/guests.js';
import { seedDemoIfEmpty } from './demo.js';
import { generate, type GenerateCounts, GenerateError, GENERATED_KINDS, GENERATED_PASSWORD } from './generate.js';
import { FixtureError, loadFixture, readFixtureFile, syncSequences } from './loaddata.js';
import { AplusImportError, importAplus, type Progress, summary } from './aplus/import.js';
import { writeFileSync } from 'node:fs';

const USAGE = `Usage: npm run manage -- <command>

Commands:
  migrate                                  apply database migrations
  createsuperuser --username U --email E --password P [--language ${LANGUAGES.join('|')}]
                                           the account's language (pages after login, e-mails);
                                           de unless given, as the reference's DEFAULT_USER_LANGUAGE_CODE
  loaddata FILE                            load a JSON fixture (all or nothing)
  seed-demo                                load the demo data into an empty database
  send-system-notices                      record phase start / phase ending actions and e-mail the
                                           followers (exactly once; the server also does it every 15 minutes)
  delete-expired-guests [--days N]         delete the guests who never registered and stayed inactive for
                                           N days (default GUEST_EXPIRY_DAYS, 30) as their own account deletion
                                           would (the server also does it every hour)
  outbox [--limit N]                       show the newest e-mails in the outbox
  media-move --to directory|database      move the uploaded media into the given store (DATA_DIR/media or
                                           the table media_files): file by file, each written, checked and
                                           then removed from the other store; run again to finish
  import-aplus --dump DUMP.json --media MEDIA [--dry-run] [--report FILE]
                                           move a whole adhocracy+ installation into an empty Allmende:
                                           DUMP is \`manage.py dumpdata [--natural-foreign]\`, MEDIA its media/
                                           folder or a .tar.gz of it; all or nothing (one transaction);
                                           --dry-run writes nothing; --report writes FILE (JSON) and FILE.txt
  generate [--organisations N] [--projects N] [--ideas N] [--comments N] [--actions N] [--users N]
                                           add realistic generated data (all or nothing)`;

class UsageError extends Error {}

/** A bar per import phase on a terminal; nothing when the output is a file or CI's log. */
function phaseProgress(): Progress | undefined {
  if (!process.stdout.isTTY || process.env.CI) return undefined;
  const bar = new SingleBar({ format: '{phase} [{bar}] {value}/{total}', hideCursor: true });
  let running = false;
  return {
    start(phase, total) {
      bar.start(Math.max(total, 1), 0, { phase: phase.padEnd(34) });
      running = true;
    },
    tick: () => bar.increment(),
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}

type Command = (database: Database, args: string[], config: Config) => Promise<void>;

const commands: Record<string, Command> = {
  async migrate() {
    console.log('Migrations applied.');
  },

  async createsuperuser(database, args) {
    const { values } = parseArgs({ args, options: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, language: { type: 'string', default: 'de' } } });
    if (!values.username || !values.email || !values.password) throw new UsageError('createsuperuser needs --username, --email and --password');
    if (usernameError(values.username)) throw new UsageError('the username may contain letters, digits, spaces and @.+-_ only (5 to 60 characters)');
    if (!isValidEmail(values.email)) throw new UsageError('the e-mail address is not valid');
    const { language } = values;
    if (!isLang(language)) throw new UsageError(`--language must be one of ${LANGUAGES.join(', ')}, got "${language}"`);
    const taken = await database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${values.username}) or lower(${users.email}) = lower(${values.email})`);
    if (taken.length) throw new UsageError(`a user with username "${values.username}" or e-mail "${values.email}" exists already`);
    await database.db.transaction(async (tx) => {
      await syncSequences(tx);
      await tx.insert(users).values({
        username: values.username as string,
        email: values.email as string,
        password: await hashPassword(values.password as string),
        language,
        isSuperuser: true,
        isStaff: true,
        emailVerified: true,
      });
    });
    console.log(`Superuser "${values.username}" created (language: ${language}).`);
  },

  async loaddata(database, args, config) {
    const [file] = args;
    if (!file) throw new UsageError('loaddata needs a FILE');
    const { data, baseDir } = readFixtureFile(file);
    const bar = new SingleBar({ format: 'Loading [{bar}] {value}/{total} records', hideCursor: true, noTTYOutput: false });
    let started = false;
    const counts = await loadFixture(database.db, data, {
      baseDir,
      media: config,
      onProgress(done, total) {
        if (!process.stdout.isTTY) return;
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(done);
      },
    });
    if (started) bar.stop();
    const summary = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ');
    console.log(`Loaded ${summary || 'nothing'}.`);
  },

  async 'seed-demo'(database, _args, config) {
    const logins = await seedDemoIfEmpty(database.db, config);
    if (!logins) throw new UsageError('the database has users already; the demo goes only into an empty database');
    console.log('Demo data loaded. Logins (username / password):');
    for (const login of logins) console.log(`  ${login.username.padEnd(12)} ${login.password}`);
  },

  async 'send-system-notices'(database, _args, config) {
    const counts = await createSystemActions(database.db, { origin: config.baseUrl, timeZone: config.timeZone });
    console.log(`Phases started: ${counts.started}, projects started: ${counts.projectsStarted}, phases ending soon: ${counts.scheduled}, e-mails queued: ${counts.mails}.`);
  },

  async 'delete-expired-guests'(database, args, config) {
    const { values } = parseArgs({ args, options: { days: { type: 'string', default: String(config.guestExpiryDays) } } });
    const days = Number(values.days);
    if (!/^\d+$/.test(String(values.days)) || days < 1 || days > 36_500) throw new UsageError('--days takes a whole number from 1 to 36500');
    const { deleted, files } = await deleteExpiredGuests(database.db, days);
    await openMedia(config.mediaStore, { dataDir: config.dataDir, db: database.db }).remove(...files);
    console.log(`Expired guests deleted: ${deleted}.`);
  },

  async generate(database, args) {
    const kinds = GENERATED_KINDS;
    const { values } = parseArgs({ args, options: Object.fromEntries(kinds.map((kind) => [kind, { type: 'string', default: '0' }])) });
    const counts = Object.fromEntries(
      kinds.map((kind) => {
        const n = Number(values[kind]);
        if (!/^\d+$/.test(String(values[kind])) || n > 100_000_000) throw new UsageError(`--${kind} takes a whole number up to 100000000`);
        return [kind, n];
      }),
    ) as unknown as GenerateCounts;
    if (!Object.values(counts).some(Boolean)) throw new UsageError(`generate needs at least one of ${kinds.map((k) => `--${k} N`).join(', ')}`);
    const bar = new SingleBar({ format: 'Generating [{bar}] {percentage}% {value}/{total} rows, {duration}s', hideCursor: true });
    const started = Date.now();
    await database.db.transaction((tx) =>
      generate(tx, counts, (done, total) => {
        if (!process.stdout.isTTY) return;
        if (done === 0) bar.start(total, 0);
        else bar.update(done);
      }),
    );
    if (process.stdout.isTTY) bar.stop();
    const summary = kinds.filter((kind) => counts[kind]).map((kind) => `${counts[kind]} ${kind}`);
    console.log(`Generated ${summary.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s.${counts.users ? ` Users gen_user_<id> log in with "${GENERATED_PASSWORD}".` : ''}`);
  },

  async 'import-aplus'(database, args, config) {
    const { values } = parseArgs({ args, options: { dump: { type: 'string' }, media: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, report: { type: 'string' } } });
    if (!values.dump || !values.media) throw new UsageError('import-aplus needs --dump DUMP.json and --media MEDIA (folder or .tar.gz)');
    const report = await importAplus(database.db, { dump: values.dump, media: values.media, dryRun: values['dry-run'], store: config, progress: phaseProgress() });
    const text = summary(report);
    if (values.report) {
      writeFileSync(values.report, `${JSON.stringify(report, null, 1)}\n`);
      writeFileSync(`${values.report.replace(/\.json$/, '')}.txt`, `${text}\n`);
    }
    console.log(text);
  },

  async 'media-move'(database, args, config) {
    const { values } = parseArgs({ args, options: { to: { type: 'string' } } });
    const to = values.to;
    if (to !== 'directory' && to !== 'database') throw new UsageError('media-move needs --to directory or --to database');
    const open = (kind: MediaStoreKind) => openMediaFiles(kind, { dataDir: config.dataDir, db: database.db });
    const counts = await moveMedia(open(to === 'database' ? 'directory' : 'database'), open(to));
    console.log(`Media moved to the ${to}: ${counts.moved} moved, ${counts.present} already there, ${counts.failed} failed.`);
    if (to !== config.mediaStore) console.log(`Set MEDIA_STORE=${to} for the server to read them there.`);
    if (counts.failed) throw new UsageError(`${counts.failed} files were not moved (see above); they stay where they were`);
  },

  async outbox(database, args) {
    const { values } = parseArgs({ args, options: { limit: { type: 'string', default: '20' } } });
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number');
    const rows = await database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(limit);
    if (!rows.length) console.log('The outbox is empty.');
    for (const mail of rows.reverse()) {
      console.log(`#${mail.id} ${mail.created.toISOString()} ${mail.sentAt ? 'sent' : mail.error ? `failed: ${mail.error}` : 'queued'} [${mail.kind}]`);
      console.log(`To: ${mail.recipient}\nSubject: ${mail.subject}\n\n${mail.body}\n${'-'.repeat(60)}`);
    }
  },
};

/**
 * The embedded database serves one process at a time, so a command cannot run beside the server
 * on it: say exactly what to do instead (issue 22, item 8).
 */
const databaseInUseAdvice = (error: DatabaseInUse) => `Error: ${error.message} (the running server, most likely).
The embedded database (PGlite) can be opened by one process at a time. To run this command:
  1. stop the server (Ctrl+C where it runs, or: kill ${error.pid}),
  2. run the command again (the same DATA_DIR),
  3. start the server again (npm start).
With PostgreSQL (DATABASE_URL) commands run while the server runs.`;

async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2);
  // The old name of send-system-notices still works.
  const command = name ? commands[name === 'create-system-actions' ? 'send-system-notices' : name] : undefined;
  if (!command) {
    console.error(name ? `Unknown command "${name}".\n\n${USAGE}` : USAGE);
    return 2;
  }
  let database: Database | null = null;
  try {
    const config = loadConfig();
    database = await openDatabase(config);
    await database.migrate();
    await afterMigrate(database.db, config);
    await command(database, args, config);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    else if (error instanceof DatabaseInUse) console.error(databaseInUseAdvice(error));
    else if (error instanceof FixtureError || error instanceof AplusImportError || error instanceof UsageError || error instanceof GenerateError) console.error(`Error: ${error.message}`);
    else console.error(`Error: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
    return 1;
  } finally {
    await database?.close();
  }
}

process.exitCode = await main();
