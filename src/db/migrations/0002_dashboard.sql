CREATE TYPE "public"."invite_role" AS ENUM('moderator', 'participant');--> statement-breakpoint
CREATE TABLE "project_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" uuid DEFAULT gen_random_uuid() NOT NULL,
	"project_id" integer NOT NULL,
	"role" "invite_role" NOT NULL,
	"email" varchar(254) NOT NULL,
	"creator_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_invites_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "language" varchar(4) DEFAULT 'de' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "image_copyright" varchar(120) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "image_alt_text" varchar(80) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "tile_image" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "tile_image_copyright" varchar(120) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "tile_image_alt_text" varchar(80) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "show_insights" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "project_invites" ADD CONSTRAINT "project_invites_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_invites" ADD CONSTRAINT "project_invites_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_invites_project_role_email_key" ON "project_invites" USING btree ("project_id","role",lower("email"));--> statement-breakpoint
CREATE INDEX "project_invites_project_idx" ON "project_invites" USING btree ("project_id");