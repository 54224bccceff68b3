-- Issue 40: a live question's change-log row named the question as its item (migration 0054), so
-- the background merge kept one row per question: an event with thousands of questions left as many
-- rows in every version sum of its project's pages. No page is kept per question (the event's pages
-- count all of its module's rows), so the questions of a module share one item, -1 ("all of the
-- module's items at once"): still thread rows (they move the event's pages, not the project's or the
-- module page's version), merged into one row per module. No item page filters on -1 (an idea's page
-- counts item 0 and its own).
DROP TRIGGER "live_questions_page_insert" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_insert" AFTER INSERT ON "live_questions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, -1 FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'thread');
--> statement-breakpoint
DROP TRIGGER "live_questions_page_update" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_update" AFTER UPDATE ON "live_questions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, -1 FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'thread');
--> statement-breakpoint
DROP TRIGGER "live_questions_page_delete" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_delete" AFTER DELETE ON "live_questions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, -1 FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'thread');
--> statement-breakpoint
-- The rows 0054 left, one per question, into one per module.
UPDATE "page_changes" pc SET "item_id" = -1 WHERE pc."thread" AND pc."item_id" > 0 AND EXISTS (SELECT 1 FROM "live_questions" q WHERE q."id" = pc."item_id" AND q."module_id" = pc."module_id");
