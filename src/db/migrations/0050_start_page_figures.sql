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
