CREATE TABLE "platform_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" varchar(50) DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"contacts" text DEFAULT '' NOT NULL,
	"facebook" varchar(500) DEFAULT '' NOT NULL,
	"twitter" varchar(500) DEFAULT '' NOT NULL,
	"github" varchar(500) DEFAULT '' NOT NULL,
	"share_image" text,
	"share_description_en" varchar(300) DEFAULT '' NOT NULL,
	"share_description_de" varchar(300) DEFAULT '' NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "start_page_figures" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(12) NOT NULL,
	"weight" smallint DEFAULT 0 NOT NULL,
	"figure_en" varchar(200) DEFAULT '' NOT NULL,
	"figure_de" varchar(200) DEFAULT '' NOT NULL,
	"caption_en" varchar(300) DEFAULT '' NOT NULL,
	"caption_de" varchar(300) DEFAULT '' NOT NULL,
	"quote_en" text DEFAULT '' NOT NULL,
	"quote_de" text DEFAULT '' NOT NULL,
	"person_name" varchar(100) DEFAULT '' NOT NULL,
	"person_description_en" varchar(200) DEFAULT '' NOT NULL,
	"person_description_de" varchar(200) DEFAULT '' NOT NULL,
	"image" text,
	"image_alt_en" varchar(200) DEFAULT '' NOT NULL,
	"image_alt_de" varchar(200) DEFAULT '' NOT NULL,
	CONSTRAINT "start_page_figures_kind_check" CHECK ("start_page_figures"."kind" IN ('number', 'testimonial', 'picture'))
);
--> statement-breakpoint
-- The footer's settings are on every page and the figures on the start page (kept pages, db/versions.ts): a change moves every page's version.
CREATE TRIGGER "platform_settings_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "platform_settings" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();--> statement-breakpoint
CREATE TRIGGER "start_page_figures_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "start_page_figures" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
