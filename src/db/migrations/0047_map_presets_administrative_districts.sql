CREATE TABLE "administrative_districts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(128) NOT NULL,
	"short_code" varchar(2) DEFAULT '' NOT NULL,
	"area" jsonb
);
--> statement-breakpoint
CREATE TABLE "map_preset_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(128) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_presets" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(128) NOT NULL,
	"category_id" integer,
	"area" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "administrative_district_id" integer;--> statement-breakpoint
ALTER TABLE "map_presets" ADD CONSTRAINT "map_presets_category_id_map_preset_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."map_preset_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_administrative_district_id_administrative_districts_id_fk" FOREIGN KEY ("administrative_district_id") REFERENCES "public"."administrative_districts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A district's name is on the start page's filter (kept pages, db/versions.ts): a change moves every page's version.
CREATE TRIGGER "administrative_districts_page_change" AFTER INSERT OR UPDATE OR DELETE ON "administrative_districts" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "administrative_districts_page_truncate" AFTER TRUNCATE ON "administrative_districts" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
