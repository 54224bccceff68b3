import { customType, integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';

/** Raw bytes: pg gives a Buffer, PGlite a Uint8Array; both come back as a Buffer. */
const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded media with MEDIA_STORE=database (src/media/store.ts): every instance reads the same
 * files. The key is the media path the rows store (`ideas/images/<sha256>.png`; older uploads and
 * moved files keep their random names, the smaller copies live under `variants/`), with the
 * content's SHA-256 beside it.
 */
export const mediaFiles = pgTable('media_files', {
  path: text('path').primaryKey(),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  contentType: varchar('content_type', { length: 100 }).notNull(),
  size: integer('size').notNull(),
  data: bytes('data').notNull(),
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
});
