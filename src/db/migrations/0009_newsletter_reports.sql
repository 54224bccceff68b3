ALTER TABLE "newsletters" ADD COLUMN "reported_at" timestamp with time zone;--> statement-breakpoint
-- Newsletters sent before delivery reports existed get none.
UPDATE "newsletters" SET "reported_at" = "created";
