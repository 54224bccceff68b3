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
