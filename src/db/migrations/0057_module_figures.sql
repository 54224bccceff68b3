-- Issue 40: the module tiles' figures kept under the version they were counted at
-- (db/schema/versions.ts `moduleFigures`, core/modules/figures.ts): a module is counted when its own
-- version moved, at most once per process and version, not in every process after every comment
-- or question in its project; a process that reads after the row was written takes it.
CREATE TABLE "module_figures" (
	"module_id" integer PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"items" integer NOT NULL,
	"comments" integer NOT NULL,
	"participants" integer NOT NULL
);
