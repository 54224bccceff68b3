CREATE TABLE "result_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"result_id" integer NOT NULL,
	"author_id" integer,
	"date" date NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"image" varchar(500),
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "result_links" (
	"result_id" integer NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"object_pk" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "result_links_result_id_content_type_object_pk_pk" PRIMARY KEY("result_id","content_type","object_pk")
);
--> statement-breakpoint
CREATE TABLE "result_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "result_statuses_progress_range" CHECK ("result_statuses"."progress" BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE TABLE "results" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"parent_id" integer,
	"status_id" integer,
	"creator_id" integer,
	"title" varchar(255) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" varchar(120) DEFAULT '' NOT NULL,
	"district" varchar(120) DEFAULT '' NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"start_date" date,
	"end_date" date,
	"budget_planned" integer,
	"budget_spent" integer,
	"progress" smallint,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "results_progress_range" CHECK ("results"."progress" BETWEEN 0 AND 100),
	CONSTRAINT "results_budgets_not_negative" CHECK (coalesce("results"."budget_planned", 0) >= 0 AND coalesce("results"."budget_spent", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "comments" DROP CONSTRAINT "comments_content_type_check";--> statement-breakpoint
ALTER TABLE "result_entries" ADD CONSTRAINT "result_entries_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_entries" ADD CONSTRAINT "result_entries_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_links" ADD CONSTRAINT "result_links_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_statuses" ADD CONSTRAINT "result_statuses_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_parent_id_results_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_status_id_result_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."result_statuses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "result_entries_result_idx" ON "result_entries" USING btree ("result_id","date","id");--> statement-breakpoint
CREATE INDEX "result_links_object_idx" ON "result_links" USING btree ("content_type","object_pk");--> statement-breakpoint
CREATE INDEX "result_statuses_organisation_idx" ON "result_statuses" USING btree ("organisation_id","position");--> statement-breakpoint
CREATE INDEX "results_project_idx" ON "results" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "results_parent_idx" ON "results" USING btree ("parent_id");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_content_type_check" CHECK (content_type IN ('project', 'module', 'phase', 'idea', 'mapidea', 'proposal', 'poll', 'chapter', 'paragraph', 'subject', 'topic', 'livequestion', 'comment', 'rating', 'report', 'moderatorcommentfeedback', 'offlineevent', 'result'));
-- The project page's Results tab and the contributions' "This became part of" show results, their links and statuses: their writes change the project's pages (db/versions.ts).
--> statement-breakpoint
CREATE TRIGGER "results_page_insert" AFTER INSERT ON "results" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "results_page_update" AFTER UPDATE ON "results" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "results_page_delete" AFTER DELETE ON "results" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "results_page_truncate" AFTER TRUNCATE ON "results" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "result_links_page_insert" AFTER INSERT ON "result_links" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT res.project_id FROM changed_rows r JOIN results res ON res.id = r.result_id');
--> statement-breakpoint
CREATE TRIGGER "result_links_page_update" AFTER UPDATE ON "result_links" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT res.project_id FROM changed_rows r JOIN results res ON res.id = r.result_id');
--> statement-breakpoint
CREATE TRIGGER "result_links_page_delete" AFTER DELETE ON "result_links" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT res.project_id FROM changed_rows r JOIN results res ON res.id = r.result_id');
--> statement-breakpoint
CREATE TRIGGER "result_links_page_truncate" AFTER TRUNCATE ON "result_links" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "result_statuses_page_insert" AFTER INSERT ON "result_statuses" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "result_statuses_page_update" AFTER UPDATE ON "result_statuses" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "result_statuses_page_delete" AFTER DELETE ON "result_statuses" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "result_statuses_page_truncate" AFTER TRUNCATE ON "result_statuses" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
