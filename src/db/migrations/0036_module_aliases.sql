ALTER TABLE "modules" ADD COLUMN "category_alias" varchar(25) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "category_alias_help" varchar(300) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "label_alias" varchar(25) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "label_alias_help" varchar(300) DEFAULT '' NOT NULL;