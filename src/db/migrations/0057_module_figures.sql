-- Issue 40: the module tiles' figures kept under the version they were counted at
-- (db/schema/versions.ts `moduleFigures`, core/modules/figures.ts): a module is counted about once
-- per version for all processes, not once per process after every comment in its project.
CREATE TABLE "module_figures" (
	"module_id" integer PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"items" integer NOT NULL,
	"comments" integer NOT NULL,
	"participants" integer NOT NULL
);
