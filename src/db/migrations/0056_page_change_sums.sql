-- Issue 40: every page read summed all of its project's rows of the change log (one per item and
-- merged key, and every write of the last minute), so the cost of each read grew with the project's
-- items and the writes going on. The merge now moves the rows into sums per key, per module and per
-- project (db/versions.ts `compactPageChanges`, every few seconds), and a page's version reads those
-- few sums and the rows not merged yet.
CREATE TABLE "page_change_sums" (
	"scope" smallint NOT NULL,
	"project_id" integer NOT NULL,
	"module_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"thread" boolean NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "page_change_sums_pkey" PRIMARY KEY("scope","project_id","module_id","item_id","thread")
);
--> statement-breakpoint
-- The rows there are, merged now: every page's version stays what it was.
WITH fresh AS (DELETE FROM "page_changes" RETURNING project_id, module_id, item_id, thread, n),
  levels AS (SELECT 0 AS scope, project_id, module_id, item_id, thread, n FROM fresh
    UNION ALL SELECT 1, project_id, module_id, 0, thread, n FROM fresh
    UNION ALL SELECT 2, project_id, 0, 0, thread, n FROM fresh)
INSERT INTO "page_change_sums" (scope, project_id, module_id, item_id, thread, n)
SELECT scope, project_id, module_id, item_id, thread, sum(n) FROM levels GROUP BY 1, 2, 3, 4, 5;
