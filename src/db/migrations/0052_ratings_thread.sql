-- Issue 40: a rating of an item moves only that item's page, as a comment does (migration 0051): the
-- module's and the project's kept pages fill the agree/disagree figures in at sending
-- (web/page-keeping.ts `figureText`), so the ratings' rows are thread rows too. And the topics,
-- subjects, chapters and paragraphs are items of their module like the ideas: a comment (or a
-- rating) on one marks its row a thread row, and their module's page fills its figures in as well.
-- (A poll is no item: its module page shows its comments themselves.) A moderator's feedback on a
-- comment shows in the comment's thread only, on its item's page: a thread row too.
CREATE OR REPLACE FUNCTION "page_item_of_item"(kind text, pk integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN kind IN ('idea', 'mapidea', 'proposal', 'topic', 'subject', 'chapter', 'paragraph') THEN pk ELSE 0 END
$$;
--> statement-breakpoint
DROP TRIGGER "ratings_page_insert" ON "ratings";
--> statement-breakpoint
CREATE TRIGGER "ratings_page_insert" AFTER INSERT ON "ratings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'thread');
--> statement-breakpoint
DROP TRIGGER "ratings_page_update" ON "ratings";
--> statement-breakpoint
CREATE TRIGGER "ratings_page_update" AFTER UPDATE ON "ratings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'thread');
--> statement-breakpoint
DROP TRIGGER "ratings_page_delete" ON "ratings";
--> statement-breakpoint
CREATE TRIGGER "ratings_page_delete" AFTER DELETE ON "ratings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'thread');
--> statement-breakpoint
DROP TRIGGER "comment_feedback_page_insert" ON "comment_feedback";
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_insert" AFTER INSERT ON "comment_feedback" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id, page_module_of(c.content_type, c.object_pk), page_item_of(c.content_type, c.object_pk) FROM changed_rows r JOIN comments c ON c.id = r.comment_id', 'thread');
--> statement-breakpoint
DROP TRIGGER "comment_feedback_page_update" ON "comment_feedback";
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_update" AFTER UPDATE ON "comment_feedback" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id, page_module_of(c.content_type, c.object_pk), page_item_of(c.content_type, c.object_pk) FROM changed_rows r JOIN comments c ON c.id = r.comment_id', 'thread');
--> statement-breakpoint
DROP TRIGGER "comment_feedback_page_delete" ON "comment_feedback";
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_delete" AFTER DELETE ON "comment_feedback" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id, page_module_of(c.content_type, c.object_pk), page_item_of(c.content_type, c.object_pk) FROM changed_rows r JOIN comments c ON c.id = r.comment_id', 'thread');
