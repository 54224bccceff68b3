CREATE TABLE "project_insight_days" (
	"project_id" integer NOT NULL,
	"day" date NOT NULL,
	"ideas" integer DEFAULT 0 NOT NULL,
	"comments" integer DEFAULT 0 NOT NULL,
	"ratings" integer DEFAULT 0 NOT NULL,
	"participants" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "project_insight_days_project_id_day_pk" PRIMARY KEY("project_id","day")
);
--> statement-breakpoint
CREATE TABLE "project_insight_participants" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "project_insight_participants_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "project_insight_days" ADD CONSTRAINT "project_insight_days_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_insight_participants" ADD CONSTRAINT "project_insight_participants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_insight_participants" ADD CONSTRAINT "project_insight_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_insight_participants_user_idx" ON "project_insight_participants" USING btree ("user_id");--> statement-breakpoint
-- Backfill (§B17): the counters of the content that exists, as the services would have kept them.
CREATE TEMPORARY TABLE "insight_contributions" AS
SELECT m."project_id", i."creator_id" AS "user_id", 'ideas' AS "kind", i."created" AS "at" FROM "ideas" i JOIN "modules" m ON m."id" = i."module_id"
UNION ALL
SELECT c."project_id", c."creator_id", 'comments', c."created" FROM "comments" c WHERE c."project_id" IS NOT NULL
UNION ALL
SELECT COALESCE(mi."project_id", c."project_id"), r."creator_id", 'ratings', r."created" FROM "ratings" r
  LEFT JOIN "ideas" i ON r."content_type" = 'idea' AND i."id" = r."object_pk"
  LEFT JOIN "modules" mi ON mi."id" = i."module_id"
  LEFT JOIN "comments" c ON r."content_type" = 'comment' AND c."id" = r."object_pk"
  WHERE COALESCE(mi."project_id", c."project_id") IS NOT NULL;
--> statement-breakpoint
INSERT INTO "project_insight_participants" ("project_id", "user_id") SELECT DISTINCT "project_id", "user_id" FROM "insight_contributions";
--> statement-breakpoint
INSERT INTO "project_insight_days" ("project_id", "day", "ideas", "comments", "ratings", "participants")
SELECT d."project_id", d."day",
  count(*) FILTER (WHERE d."kind" = 'ideas'), count(*) FILTER (WHERE d."kind" = 'comments'), count(*) FILTER (WHERE d."kind" = 'ratings'),
  (SELECT count(*) FROM (SELECT x."user_id" FROM "insight_contributions" x WHERE x."project_id" = d."project_id" GROUP BY x."user_id"
    HAVING min((x."at" AT TIME ZONE 'UTC')::date) = d."day") f)
FROM (SELECT *, ("at" AT TIME ZONE 'UTC')::date AS "day" FROM "insight_contributions") d
GROUP BY d."project_id", d."day";
--> statement-breakpoint
DROP TABLE "insight_contributions";
