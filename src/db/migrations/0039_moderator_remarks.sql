CREATE TABLE "moderator_remarks" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"object_pk" integer NOT NULL,
	"creator_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "moderator_remarks" ADD CONSTRAINT "moderator_remarks_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "moderator_remarks_object_key" ON "moderator_remarks" USING btree ("content_type","object_pk");--> statement-breakpoint
-- The item pages show their remark to moderators: a remark's writes change its project's pages (db/versions.ts).
CREATE TRIGGER "moderator_remarks_page_insert" AFTER INSERT ON "moderator_remarks" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "moderator_remarks_page_update" AFTER UPDATE ON "moderator_remarks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "moderator_remarks_page_delete" AFTER DELETE ON "moderator_remarks" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "moderator_remarks_page_truncate" AFTER TRUNCATE ON "moderator_remarks" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
