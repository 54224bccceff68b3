CREATE TABLE "organisation_translations" (
	"organisation_id" integer NOT NULL,
	"language" varchar(4) NOT NULL,
	"description" varchar(800) DEFAULT '' NOT NULL,
	"slogan" varchar(200) DEFAULT '' NOT NULL,
	"information" text DEFAULT '' NOT NULL,
	CONSTRAINT "organisation_translations_organisation_id_language_pk" PRIMARY KEY("organisation_id","language")
);
--> statement-breakpoint
CREATE TABLE "newsletters" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"project_id" integer,
	"creator_id" integer,
	"sender_name" varchar(254) NOT NULL,
	"sender_email" varchar(254) DEFAULT '' NOT NULL,
	"subject" varchar(254) NOT NULL,
	"body" text NOT NULL,
	"receivers" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_terms_agreements" (
	"user_id" integer NOT NULL,
	"organisation_id" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisation_terms_agreements_user_id_organisation_id_pk" PRIMARY KEY("user_id","organisation_id")
);
--> statement-breakpoint
CREATE TABLE "platform_pages" (
	"key" varchar(32) NOT NULL,
	"language" varchar(4) NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_pages_key_language_pk" PRIMARY KEY("key","language")
);
--> statement-breakpoint
CREATE TABLE "system_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(32) NOT NULL,
	"object_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "image" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "image_copyright" varchar(200) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "url" varchar(200) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "twitter_handle" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "facebook_handle" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "instagram_handle" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "imprint" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "terms_of_use" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "data_protection" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "netiquette" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "newsletter_id" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "sender_name" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "reply_to" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_translations" ADD CONSTRAINT "organisation_translations_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletters" ADD CONSTRAINT "newsletters_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletters" ADD CONSTRAINT "newsletters_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletters" ADD CONSTRAINT "newsletters_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_terms_agreements" ADD CONSTRAINT "organisation_terms_agreements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_terms_agreements" ADD CONSTRAINT "organisation_terms_agreements_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsletters_organisation_idx" ON "newsletters" USING btree ("organisation_id","created");--> statement-breakpoint
CREATE UNIQUE INDEX "system_notices_key" ON "system_notices" USING btree ("kind","object_id","at");--> statement-breakpoint
CREATE INDEX "outbox_newsletter_idx" ON "outbox" USING btree ("newsletter_id") WHERE "outbox"."newsletter_id" IS NOT NULL;