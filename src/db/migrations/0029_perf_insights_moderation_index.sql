ALTER TABLE "project_insight_days" DROP CONSTRAINT "project_insight_days_project_id_day_pk";--> statement-breakpoint
CREATE INDEX "comments_project_review_idx" ON "comments" USING btree ("project_id","is_reviewed","created");--> statement-breakpoint
CREATE INDEX "project_insight_days_project_day_idx" ON "project_insight_days" USING btree ("project_id","day");--> statement-breakpoint
-- Replies carry their parent's project (as createComment stores them), so that a project's comments are found through comments_project_idx alone.
UPDATE "comments" c SET "project_id" = p."project_id" FROM "comments" p WHERE c."content_type" = 'comment' AND c."object_pk" = p."id" AND c."project_id" IS NULL AND p."project_id" IS NOT NULL;
