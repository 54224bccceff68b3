CREATE TABLE "summary_feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"summary_id" integer NOT NULL,
	"user_id" integer,
	"positive" boolean NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisation_members" ADD COLUMN "additional_info" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "is_supporting" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "homepage" varchar(200) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "twitter_handle" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "facebook_handle" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "target_group" varchar(16) DEFAULT 'project' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "is_draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "moderator_feedback_creator_id" integer;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "moderator_feedback_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "creator_email" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "creator_phone" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "creator_contact_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ideas" ADD COLUMN "moderator_feedback_creator_id" integer;--> statement-breakpoint
ALTER TABLE "ideas" ADD COLUMN "moderator_feedback_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ideas" ADD COLUMN "creator_email" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ideas" ADD COLUMN "creator_phone" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ideas" ADD COLUMN "creator_contact_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD COLUMN "moderator_feedback_creator_id" integer;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD COLUMN "moderator_feedback_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD COLUMN "creator_email" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD COLUMN "creator_phone" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD COLUMN "creator_contact_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "topics" ADD COLUMN "image" text;--> statement-breakpoint
ALTER TABLE "summary_feedback" ADD CONSTRAINT "summary_feedback_summary_id_summaries_id_fk" FOREIGN KEY ("summary_id") REFERENCES "public"."summaries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "summary_feedback" ADD CONSTRAINT "summary_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "summary_feedback_summary_idx" ON "summary_feedback" USING btree ("summary_id");--> statement-breakpoint
CREATE UNIQUE INDEX "summary_feedback_user_key" ON "summary_feedback" USING btree ("summary_id","user_id");--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_moderator_feedback_creator_id_users_id_fk" FOREIGN KEY ("moderator_feedback_creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ideas" ADD CONSTRAINT "ideas_moderator_feedback_creator_id_users_id_fk" FOREIGN KEY ("moderator_feedback_creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_ideas" ADD CONSTRAINT "map_ideas_moderator_feedback_creator_id_users_id_fk" FOREIGN KEY ("moderator_feedback_creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;