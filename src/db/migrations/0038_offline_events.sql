CREATE TABLE "offline_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"creator_id" integer,
	"slug" varchar(255) NOT NULL,
	"name" varchar(120) NOT NULL,
	"event_type" varchar(30) NOT NULL,
	"date" timestamp with time zone NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"document" varchar(500),
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "offline_events_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "comments" DROP CONSTRAINT "comments_content_type_check";--> statement-breakpoint
ALTER TABLE "offline_events" ADD CONSTRAINT "offline_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_events" ADD CONSTRAINT "offline_events_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_events_project_idx" ON "offline_events" USING btree ("project_id","date");--> statement-breakpoint
CREATE INDEX "offline_events_date_idx" ON "offline_events" USING btree ("date");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_content_type_check" CHECK (content_type IN ('project', 'module', 'phase', 'idea', 'mapidea', 'proposal', 'poll', 'chapter', 'paragraph', 'subject', 'topic', 'livequestion', 'comment', 'rating', 'report', 'moderatorcommentfeedback', 'offlineevent'));--> statement-breakpoint
-- The project page's timeline shows the project's offline events: their writes change its pages (db/versions.ts).
CREATE TRIGGER "offline_events_page_insert" AFTER INSERT ON "offline_events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "offline_events_page_update" AFTER UPDATE ON "offline_events" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "offline_events_page_delete" AFTER DELETE ON "offline_events" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "offline_events_page_truncate" AFTER TRUNCATE ON "offline_events" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
