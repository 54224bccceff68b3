ALTER TABLE "subjects" ADD COLUMN "legacy_slug" varchar(100);--> statement-breakpoint
ALTER TABLE "topics" ADD COLUMN "legacy_slug" varchar(100);--> statement-breakpoint
CREATE UNIQUE INDEX "subjects_legacy_slug_idx" ON "subjects" USING btree ("legacy_slug") WHERE "subjects"."legacy_slug" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "topics_legacy_slug_idx" ON "topics" USING btree ("legacy_slug") WHERE "topics"."legacy_slug" IS NOT NULL;