CREATE TABLE "live_purged" (
	"id" smallint PRIMARY KEY NOT NULL,
	"xid" "xid8" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_events" ADD COLUMN "xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "live_events_xid_idx" ON "live_events" USING btree ("xid");