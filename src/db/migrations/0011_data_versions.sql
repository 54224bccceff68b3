CREATE TABLE "data_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Data versions (db/versions.ts): each statement that writes a versioned table adds 1 to the table's
-- row, in the writing transaction, so the new version is visible exactly when the new rows are.
-- Only tables that are written rarely carry the trigger: writers of one table queue on its row.
CREATE FUNCTION "bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "data_versions" ("name", "version") VALUES (TG_TABLE_NAME, 1)
    ON CONFLICT ("name") DO UPDATE SET "version" = "data_versions"."version" + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "data_versions" ("name") VALUES ('organisations'), ('projects'), ('modules'), ('phases');
--> statement-breakpoint
CREATE TRIGGER "organisations_data_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organisations" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"();
--> statement-breakpoint
CREATE TRIGGER "projects_data_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"();
--> statement-breakpoint
CREATE TRIGGER "modules_data_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "modules" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"();
--> statement-breakpoint
CREATE TRIGGER "phases_data_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "phases" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"();
