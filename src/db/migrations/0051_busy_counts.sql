DROP INDEX "page_changes_project";--> statement-breakpoint
ALTER TABLE "page_changes" ADD COLUMN "thread" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "page_changes_project" ON "page_changes" USING btree ("project_id","module_id","item_id","thread","n");--> statement-breakpoint
-- Issue 40: a comment on an idea (map idea, proposal), a reply to one, or a reply to a reply, moves
-- only that item's page, not its module's or project's: their kept pages fill the comment counts in
-- at sending (web/page-keeping.ts). Its row is marked `thread`; the module's and project's pages leave
-- these rows out of their version (db/versions.ts), while the item's page, the moderation list, the
-- live channel's rights check and a page whose order or tiles show the counts still count them.
-- page_change with 'thread' as its second argument takes (project, module, item) triples like 'item',
-- and marks the rows of an item (not item 0, not a whole project) as thread rows.
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
  ELSIF TG_NARGS > 1 AND TG_ARGV[1] IN ('item', 'thread') THEN
    EXECUTE 'INSERT INTO "page_changes" ("project_id", "module_id", "item_id", "thread") SELECT DISTINCT p, m, i, ' || CASE TG_ARGV[1] WHEN 'thread' THEN 'i <> 0' ELSE 'false' END
      || ' FROM (SELECT coalesce(p, 0) AS p, CASE WHEN p IS NULL THEN 0 ELSE coalesce(m, 0) END AS m, CASE WHEN p IS NULL OR m IS NULL THEN 0 ELSE coalesce(i, 0) END AS i FROM (' || touched || ') AS touched(p, m, i)) AS t';
  ELSIF TG_NARGS > 1 THEN
    EXECUTE 'INSERT INTO "page_changes" ("project_id", "module_id") SELECT DISTINCT coalesce(p, 0), CASE WHEN p IS NULL THEN 0 ELSE coalesce(m, 0) END FROM (' || touched || ') AS touched(p, m)';
  ELSE
    EXECUTE 'INSERT INTO "page_changes" ("project_id") SELECT DISTINCT coalesce(p, 0) FROM (' || touched || ') AS touched(p)';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "comments_page_insert" ON "comments";
--> statement-breakpoint
CREATE TRIGGER "comments_page_insert" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id, page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'thread');
--> statement-breakpoint
DROP TRIGGER "comments_page_update" ON "comments";
--> statement-breakpoint
CREATE TRIGGER "comments_page_update" AFTER UPDATE ON "comments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id, page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'thread');
--> statement-breakpoint
DROP TRIGGER "comments_page_delete" ON "comments";
--> statement-breakpoint
CREATE TRIGGER "comments_page_delete" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id, page_module_of(r.content_type, r.object_pk), page_item_of(r.content_type, r.object_pk) FROM changed_rows r', 'thread');
