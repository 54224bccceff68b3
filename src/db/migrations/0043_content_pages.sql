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
