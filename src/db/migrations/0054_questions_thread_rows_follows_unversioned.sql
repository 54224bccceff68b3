-- Issue 40: what still moved the project page while busy.
-- A live question shows on its event's pages (kept under the module's whole version, thread rows
-- included) and as the event tile's "N questions" on the project page, which is filled in at sending
-- (web/page-keeping.ts `figureText`, the tiles' item counts). So a question's row is a thread row of
-- its module and item (the question), like a comment's on an idea: it moves the event's pages, not
-- the project's or the module's page (db/versions.ts `countedPageVersionFields` leaves thread rows out).
DROP TRIGGER "live_questions_page_insert" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_insert" AFTER INSERT ON "live_questions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'thread');
--> statement-breakpoint
DROP TRIGGER "live_questions_page_update" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_update" AFTER UPDATE ON "live_questions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'thread');
--> statement-breakpoint
DROP TRIGGER "live_questions_page_delete" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_delete" AFTER DELETE ON "live_questions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'thread');
--> statement-breakpoint
-- A follow shows only as the follower's own Follow/Unfollow button: the pages that show it keep the
-- viewer's page under a version that includes whether the viewer follows (db/versions.ts, the `own`
-- part), so a follow (a first contribution's automatic one too) moves nobody else's page.
DROP TRIGGER "follows_page_insert" ON "follows";
--> statement-breakpoint
DROP TRIGGER "follows_page_update" ON "follows";
--> statement-breakpoint
DROP TRIGGER "follows_page_delete" ON "follows";
--> statement-breakpoint
DROP TRIGGER "follows_page_truncate" ON "follows";
