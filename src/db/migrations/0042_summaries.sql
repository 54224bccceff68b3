CREATE TABLE "summaries" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"module_id" integer,
	"text" text NOT NULL,
	"model" varchar(200) NOT NULL,
	"input_hash" varchar(64) NOT NULL,
	"contributions" integer NOT NULL,
	"created_by_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"published" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "summaries" ADD CONSTRAINT "summaries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "summaries" ADD CONSTRAINT "summaries_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "summaries" ADD CONSTRAINT "summaries_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "summaries_scope_key" ON "summaries" USING btree ("project_id",coalesce("module_id", 0));