DROP INDEX "page_changes_project";--> statement-breakpoint
ALTER TABLE "page_changes" ADD COLUMN "module_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "page_changes" ADD COLUMN "item_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "page_changes_project" ON "page_changes" USING btree ("project_id","module_id","item_id","n");
--> statement-breakpoint
-- Issue 40: a write to one module's content (its ideas, comments, ratings, reports, questions) moves
-- the version of that module's pages and the project's, and a write to one idea's (map idea's,
-- proposal's) content, of that idea's page too, no longer every page of the project (db/versions.ts,
-- pageVersionField). page_change with a second argument 'module' takes a select of (project, module)
-- pairs, with 'item' of (project, module, item) triples; without it, as before, of projects
-- (module 0: every page of the project).
--
-- page_module_item_of: the module of an object that generic relations point at (0: not known, every
-- page of its project); page_item_of: the idea, map idea or proposal it is (0: none, every page of
-- its module). Both follow comments to what they discuss, up to a reply to a reply (deeper, or gone: 0).
CREATE FUNCTION "page_module_item_of"(kind text, pk integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(CASE kind
    WHEN 'module' THEN pk
    WHEN 'idea' THEN (SELECT module_id FROM ideas WHERE id = pk)
    WHEN 'mapidea' THEN (SELECT module_id FROM map_ideas WHERE id = pk)
    WHEN 'proposal' THEN (SELECT module_id FROM proposals WHERE id = pk)
    WHEN 'poll' THEN (SELECT module_id FROM polls WHERE id = pk)
    WHEN 'chapter' THEN (SELECT module_id FROM chapters WHERE id = pk)
    WHEN 'paragraph' THEN (SELECT x.module_id FROM paragraphs p JOIN chapters x ON x.id = p.chapter_id WHERE p.id = pk)
    WHEN 'subject' THEN (SELECT module_id FROM subjects WHERE id = pk)
    WHEN 'topic' THEN (SELECT module_id FROM topics WHERE id = pk)
    WHEN 'livequestion' THEN (SELECT module_id FROM live_questions WHERE id = pk)
  END, 0)
$$;
--> statement-breakpoint
CREATE FUNCTION "page_item_of_item"(kind text, pk integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN kind IN ('idea', 'mapidea', 'proposal') THEN pk ELSE 0 END
$$;
--> statement-breakpoint
-- What a comment (or a reply, or a reply to a reply) discusses: its kind and id, null when unknown.
CREATE FUNCTION "page_discussed"(of_kind text, of_pk integer) RETURNS TABLE (kind text, pk integer) LANGUAGE sql STABLE AS $$
  SELECT of_kind, of_pk WHERE of_kind <> 'comment'
  UNION ALL
  SELECT CASE WHEN c.content_type <> 'comment' THEN c.content_type ELSE p.content_type END, CASE WHEN c.content_type <> 'comment' THEN c.object_pk ELSE p.object_pk END
  FROM comments c LEFT JOIN comments p ON c.content_type = 'comment' AND p.id = c.object_pk AND p.content_type <> 'comment'
  WHERE of_kind = 'comment' AND c.id = of_pk
$$;
--> statement-breakpoint
CREATE FUNCTION "page_module_of"(kind text, pk integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT page_module_item_of(d.kind, d.pk) FROM page_discussed(kind, pk) d WHERE d.kind IS NOT NULL LIMIT 1), 0)
$$;
--> statement-breakpoint
CREATE FUNCTION "page_item_of"(kind text, pk integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT page_item_of_item(d.kind, d.pk) FROM page_discussed(kind, pk) d WHERE d.kind IS NOT NULL LIMIT 1), 0)
$$;
--> statement-breakpoint
-- A statement of more than 1,000 rows (an import, a generator) counts for its projects' pages as a
-- whole, as before: finding each row's module and item would cost a lookup per row.
CREATE OR REPLACE FUNCTION "page_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text;
  rows_seen integer;
BEGIN
  IF TG_NARGS = 0 OR TG_OP = 'TRUNCATE' THEN
    INSERT INTO "page_changes" ("project_id") VALUES (0);
    RETURN NULL;
  END IF;
  touched := CASE TG_OP
    WHEN 'INSERT' THEN replace(TG_ARGV[0], 'changed_rows', 'new_rows')
    WHEN 'DELETE' THEN replace(TG_ARGV[0], 'changed_rows', 'old_rows')
    ELSE replace(TG_ARGV[0], 'changed_rows', 'old_rows') || ' UNION ' || replace(TG_ARGV[0], 'changed_rows', 'new_rows')
  END;
  IF TG_NARGS > 1 THEN
    EXECUTE 'SELECT count(*) FROM (SELECT 1 FROM ' || CASE TG_OP WHEN 'DELETE' THEN 'old_rows' ELSE 'new_rows' END || ' LIMIT 1001) AS x' INTO rows_seen;
  END IF;
  -- A row without a project counts for every page; one without a module for the project's.
  IF TG_NARGS > 1 AND rows_seen > 1000 THEN
    EXECUTE 'INSERT INTO "page_changes" ("project_id") SELECT DISTINCT coalesce(p, 0) FROM (' || touched || ') AS touched(p)';
  ELSIF TG_NARGS > 1 AND TG_ARGV[1] = 'item' THEN
    EXECUTE 'INSERT INTO "page_changes" ("project_id", "module_id", "item_id") SELECT DISTINCT coalesce(p, 0), CASE WHEN p IS NULL THEN 0 ELSE coalesce(m, 0) END, CASE WHEN p IS NULL OR m IS NULL THEN 0 ELSE coalesce(i, 0) END FROM (' || touched || ') AS touched(p, m, i)';
  ELSIF TG_NARGS > 1 THEN
    EXECUTE 'INSERT INTO "page_changes" ("project_id", "module_id") SELECT DISTINCT coalesce(p, 0), CASE WHEN p IS NULL THEN 0 ELSE coalesce(m, 0) END FROM (' || touched || ') AS touched(p, m)';
  ELSE
    EXECUTE 'INSERT INTO "page_changes" ("project_id") SELECT DISTINCT coalesce(p, 0) FROM (' || touched || ') AS touched(p)';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A like of a live question shows only on the event page, its presentation screen and the API,
-- none of them kept: it moves no page's version (the live channel carries the count).
DROP TRIGGER "live_question_likes_page_insert" ON "live_question_likes";
--> statement-breakpoint
DROP TRIGGER "live_question_likes_page_update" ON "live_question_likes";
--> statement-breakpoint
DROP TRIGGER "live_question_likes_page_delete" ON "live_question_likes";
--> statement-breakpoint
DROP TRIGGER "live_question_likes_page_truncate" ON "live_question_likes";
--> statement-breakpoint
DROP TRIGGER "comments_page_insert" ON "comments";
--> statement-breakpoint
CREATE TRIGGER "comments_page_insert" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id, page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "comments_page_update" ON "comments";
--> statement-breakpoint
CREATE TRIGGER "comments_page_update" AFTER UPDATE ON "comments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id, page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "comments_page_delete" ON "comments";
--> statement-breakpoint
CREATE TRIGGER "comments_page_delete" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id, page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "comment_feedback_page_insert" ON "comment_feedback";
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_insert" AFTER INSERT ON "comment_feedback" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id, page_module_of(c.content_type, c.object_pk), page_item_of(c.content_type, c.object_pk) FROM changed_rows r JOIN comments c ON c.id = r.comment_id', 'item');
--> statement-breakpoint
DROP TRIGGER "comment_feedback_page_update" ON "comment_feedback";
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_update" AFTER UPDATE ON "comment_feedback" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id, page_module_of(c.content_type, c.object_pk), page_item_of(c.content_type, c.object_pk) FROM changed_rows r JOIN comments c ON c.id = r.comment_id', 'item');
--> statement-breakpoint
DROP TRIGGER "comment_feedback_page_delete" ON "comment_feedback";
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_delete" AFTER DELETE ON "comment_feedback" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id, page_module_of(c.content_type, c.object_pk), page_item_of(c.content_type, c.object_pk) FROM changed_rows r JOIN comments c ON c.id = r.comment_id', 'item');
--> statement-breakpoint
DROP TRIGGER "ratings_page_insert" ON "ratings";
--> statement-breakpoint
CREATE TRIGGER "ratings_page_insert" AFTER INSERT ON "ratings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "ratings_page_update" ON "ratings";
--> statement-breakpoint
CREATE TRIGGER "ratings_page_update" AFTER UPDATE ON "ratings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "ratings_page_delete" ON "ratings";
--> statement-breakpoint
CREATE TRIGGER "ratings_page_delete" AFTER DELETE ON "ratings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "reports_page_insert" ON "reports";
--> statement-breakpoint
CREATE TRIGGER "reports_page_insert" AFTER INSERT ON "reports" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "reports_page_update" ON "reports";
--> statement-breakpoint
CREATE TRIGGER "reports_page_update" AFTER UPDATE ON "reports" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "reports_page_delete" ON "reports";
--> statement-breakpoint
CREATE TRIGGER "reports_page_delete" AFTER DELETE ON "reports" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk), page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'item');
--> statement-breakpoint
DROP TRIGGER "ideas_page_insert" ON "ideas";
--> statement-breakpoint
CREATE TRIGGER "ideas_page_insert" AFTER INSERT ON "ideas" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "ideas_page_update" ON "ideas";
--> statement-breakpoint
CREATE TRIGGER "ideas_page_update" AFTER UPDATE ON "ideas" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "ideas_page_delete" ON "ideas";
--> statement-breakpoint
CREATE TRIGGER "ideas_page_delete" AFTER DELETE ON "ideas" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "map_ideas_page_insert" ON "map_ideas";
--> statement-breakpoint
CREATE TRIGGER "map_ideas_page_insert" AFTER INSERT ON "map_ideas" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "map_ideas_page_update" ON "map_ideas";
--> statement-breakpoint
CREATE TRIGGER "map_ideas_page_update" AFTER UPDATE ON "map_ideas" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "map_ideas_page_delete" ON "map_ideas";
--> statement-breakpoint
CREATE TRIGGER "map_ideas_page_delete" AFTER DELETE ON "map_ideas" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "proposals_page_insert" ON "proposals";
--> statement-breakpoint
CREATE TRIGGER "proposals_page_insert" AFTER INSERT ON "proposals" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "proposals_page_update" ON "proposals";
--> statement-breakpoint
CREATE TRIGGER "proposals_page_update" AFTER UPDATE ON "proposals" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "proposals_page_delete" ON "proposals";
--> statement-breakpoint
CREATE TRIGGER "proposals_page_delete" AFTER DELETE ON "proposals" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id, r.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'item');
--> statement-breakpoint
DROP TRIGGER "live_questions_page_insert" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_insert" AFTER INSERT ON "live_questions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'module');
--> statement-breakpoint
DROP TRIGGER "live_questions_page_update" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_update" AFTER UPDATE ON "live_questions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'module');
--> statement-breakpoint
DROP TRIGGER "live_questions_page_delete" ON "live_questions";
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_delete" AFTER DELETE ON "live_questions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id, m.id FROM changed_rows r JOIN modules m ON m.id = r.module_id', 'module');
