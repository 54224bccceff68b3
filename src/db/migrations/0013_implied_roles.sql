ALTER TABLE "project_moderators" ADD COLUMN "implied" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "project_participants" ADD COLUMN "implied" boolean DEFAULT false NOT NULL;