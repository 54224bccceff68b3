CREATE TABLE "custom_field_answers" (
	"field_id" integer NOT NULL,
	"object_pk" integer NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"choice_id" integer,
	CONSTRAINT "custom_field_answers_field_id_object_pk_pk" PRIMARY KEY("field_id","object_pk")
);
--> statement-breakpoint
CREATE TABLE "custom_field_choices" (
	"id" serial PRIMARY KEY NOT NULL,
	"field_id" integer NOT NULL,
	"label" varchar(120) NOT NULL,
	"weight" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"label" varchar(200) NOT NULL,
	"help_text" varchar(300) DEFAULT '' NOT NULL,
	"kind" varchar(10) NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"weight" smallint DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "custom_fields_kind_check" CHECK ("custom_fields"."kind" IN ('text', 'choice'))
);
--> statement-breakpoint
ALTER TABLE "custom_field_answers" ADD CONSTRAINT "custom_field_answers_field_id_custom_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."custom_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_field_answers" ADD CONSTRAINT "custom_field_answers_choice_id_custom_field_choices_id_fk" FOREIGN KEY ("choice_id") REFERENCES "public"."custom_field_choices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_field_choices" ADD CONSTRAINT "custom_field_choices_field_id_custom_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."custom_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_field_answers_object_idx" ON "custom_field_answers" USING btree ("object_pk");--> statement-breakpoint
CREATE INDEX "custom_field_answers_choice_idx" ON "custom_field_answers" USING btree ("choice_id","object_pk");--> statement-breakpoint
CREATE INDEX "custom_field_choices_field_idx" ON "custom_field_choices" USING btree ("field_id","weight");--> statement-breakpoint
CREATE INDEX "custom_fields_module_idx" ON "custom_fields" USING btree ("module_id","weight");--> statement-breakpoint
-- The idea pages, forms and lists show a module's questions and the answers: their writes change the module's project's pages (db/versions.ts).
CREATE TRIGGER "custom_fields_page_insert" AFTER INSERT ON "custom_fields" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_fields_page_update" AFTER UPDATE ON "custom_fields" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_fields_page_delete" AFTER DELETE ON "custom_fields" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_fields_page_truncate" AFTER TRUNCATE ON "custom_fields" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "custom_field_choices_page_insert" AFTER INSERT ON "custom_field_choices" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN custom_fields f ON f.id = r.field_id JOIN modules m ON m.id = f.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_field_choices_page_update" AFTER UPDATE ON "custom_field_choices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN custom_fields f ON f.id = r.field_id JOIN modules m ON m.id = f.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_field_choices_page_delete" AFTER DELETE ON "custom_field_choices" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN custom_fields f ON f.id = r.field_id JOIN modules m ON m.id = f.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_field_choices_page_truncate" AFTER TRUNCATE ON "custom_field_choices" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "custom_field_answers_page_insert" AFTER INSERT ON "custom_field_answers" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN custom_fields f ON f.id = r.field_id JOIN modules m ON m.id = f.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_field_answers_page_update" AFTER UPDATE ON "custom_field_answers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN custom_fields f ON f.id = r.field_id JOIN modules m ON m.id = f.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_field_answers_page_delete" AFTER DELETE ON "custom_field_answers" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN custom_fields f ON f.id = r.field_id JOIN modules m ON m.id = f.module_id');
--> statement-breakpoint
CREATE TRIGGER "custom_field_answers_page_truncate" AFTER TRUNCATE ON "custom_field_answers" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();

--> statement-breakpoint
CREATE TABLE "content_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" varchar(100) NOT NULL,
	"title_en" varchar(200) DEFAULT '' NOT NULL,
	"title_de" varchar(200) DEFAULT '' NOT NULL,
	"body_en" text DEFAULT '' NOT NULL,
	"body_de" text DEFAULT '' NOT NULL,
	"placement" varchar(10) DEFAULT 'footer' NOT NULL,
	"weight" smallint DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "content_pages_slug_unique" UNIQUE("slug"),
	CONSTRAINT "content_pages_placement_check" CHECK ("content_pages"."placement" IN ('footer', 'menu', 'none'))
);
--> statement-breakpoint
CREATE TABLE "start_page" (
	"id" integer PRIMARY KEY NOT NULL,
	"heading_en" varchar(200) DEFAULT '' NOT NULL,
	"heading_de" varchar(200) DEFAULT '' NOT NULL,
	"intro_en" text DEFAULT '' NOT NULL,
	"intro_de" text DEFAULT '' NOT NULL,
	"image" text,
	"image_alt_en" varchar(200) DEFAULT '' NOT NULL,
	"image_alt_de" varchar(200) DEFAULT '' NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The footer and menu of every page link the content pages, and the start page shows its texts: their writes change every page (db/versions.ts, project 0).
CREATE TRIGGER "content_pages_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "content_pages" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "start_page_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "start_page" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
