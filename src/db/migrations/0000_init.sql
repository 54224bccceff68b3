CREATE TYPE "public"."project_access" AS ENUM('PUBLIC', 'SEMIPUBLIC', 'PRIVATE');--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"key" varchar(40) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_tokens_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "browser_sessions" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jwt_blacklist" (
	"jti" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"blacklisted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_initiators" (
	"organisation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "organisation_initiators_organisation_id_user_id_pk" PRIMARY KEY("organisation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organisation_members" (
	"organisation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"member_number" varchar(64) DEFAULT '' NOT NULL,
	CONSTRAINT "organisation_members_organisation_id_user_id_pk" PRIMARY KEY("organisation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" varchar(512) NOT NULL,
	"name" varchar(512) NOT NULL,
	"title" varchar(100) DEFAULT '' NOT NULL,
	"description" varchar(800) DEFAULT '' NOT NULL,
	"logo" text,
	"enable_geolocation" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisations_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipient" varchar(254) NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"html" text,
	"kind" varchar(64) DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "social_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" varchar(64) NOT NULL,
	"subject" varchar(255) NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(60) NOT NULL,
	"email" varchar(254) NOT NULL,
	"password" text DEFAULT '' NOT NULL,
	"is_superuser" boolean DEFAULT false NOT NULL,
	"is_staff" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"language" varchar(4) DEFAULT 'de' NOT NULL,
	"avatar" text,
	"bio" varchar(255) DEFAULT '' NOT NULL,
	"get_notifications" boolean DEFAULT true NOT NULL,
	"get_newsletters" boolean DEFAULT false NOT NULL,
	"date_joined" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login" timestamp with time zone,
	"credentials_valid_after" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"icon" varchar(254) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follows" (
	"id" serial PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"name" varchar(120) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "modules" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" varchar(512) NOT NULL,
	"project_id" integer NOT NULL,
	"name" varchar(512) NOT NULL,
	"description" varchar(512),
	"weight" integer DEFAULT 0 NOT NULL,
	"blueprint_type" varchar(8) DEFAULT 'BS' NOT NULL,
	"is_draft" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "modules_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "phases" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"type" varchar(128) NOT NULL,
	"name" varchar(80) DEFAULT '' NOT NULL,
	"description" varchar(300) DEFAULT '' NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"weight" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "phases_dates_both_or_neither" CHECK (("phases"."start_date" IS NULL) = ("phases"."end_date" IS NULL)),
	CONSTRAINT "phases_end_after_start" CHECK ("phases"."end_date" >= "phases"."start_date")
);
--> statement-breakpoint
CREATE TABLE "project_moderators" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "project_moderators_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "project_participants" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "project_participants_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" varchar(512) NOT NULL,
	"name" varchar(120) NOT NULL,
	"organisation_id" integer NOT NULL,
	"description" varchar(250) DEFAULT '' NOT NULL,
	"information" text DEFAULT '' NOT NULL,
	"result" text DEFAULT '' NOT NULL,
	"access" "project_access" DEFAULT 'PUBLIC' NOT NULL,
	"is_draft" boolean DEFAULT true NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"is_app_accessible" boolean DEFAULT false NOT NULL,
	"image" text,
	"point_lat" double precision,
	"point_lng" double precision,
	"street_name" varchar(200),
	"house_number" varchar(10),
	"zip_code" varchar(20),
	"contact_name" varchar(120) DEFAULT '' NOT NULL,
	"contact_address_text" text DEFAULT '' NOT NULL,
	"contact_email" varchar(254) DEFAULT '' NOT NULL,
	"contact_phone" varchar(20) DEFAULT '' NOT NULL,
	"contact_url" varchar(200) DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "projects_slug_unique" UNIQUE("slug"),
	CONSTRAINT "projects_point_both_or_neither" CHECK (("projects"."point_lat" IS NULL) = ("projects"."point_lng" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"verb" varchar(255) NOT NULL,
	"obj_type" varchar(32) NOT NULL,
	"obj_id" integer NOT NULL,
	"target_type" varchar(32),
	"target_id" integer,
	"target_creator_id" integer,
	"obj_comment_creator_id" integer,
	"project_id" integer,
	"phase_id" integer,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"public" boolean DEFAULT true NOT NULL,
	"description" text,
	CONSTRAINT "actions_verb_check" CHECK (verb IN ('create', 'add', 'update', 'complete', 'schedule', 'start', 'publish'))
);
--> statement-breakpoint
CREATE TABLE "chapters" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "comment_feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"comment_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"feedback_text" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "comment_feedback_comment_id_unique" UNIQUE("comment_id")
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"object_pk" integer NOT NULL,
	"comment" varchar(4000) DEFAULT '' NOT NULL,
	"comment_categories" varchar(256) DEFAULT '' NOT NULL,
	"is_removed" boolean DEFAULT false NOT NULL,
	"is_censored" boolean DEFAULT false NOT NULL,
	"is_blocked" boolean DEFAULT false NOT NULL,
	"is_moderator_marked" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"last_discussed" timestamp with time zone,
	"project_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "comments_content_type_check" CHECK (content_type IN ('project', 'module', 'phase', 'idea', 'poll', 'chapter', 'paragraph', 'comment', 'rating', 'report', 'moderatorcommentfeedback'))
);
--> statement-breakpoint
CREATE TABLE "idea_labels" (
	"idea_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "idea_labels_idea_id_label_id_pk" PRIMARY KEY("idea_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "ideas" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" text NOT NULL,
	"image" text,
	"category_id" integer,
	"moderator_status" varchar(254),
	"moderator_feedback_text" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "paragraphs" (
	"id" serial PRIMARY KEY NOT NULL,
	"chapter_id" integer NOT NULL,
	"name" varchar(120) DEFAULT '' NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "polls" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"object_pk" integer NOT NULL,
	"value" smallint NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "ratings_value_range" CHECK ("ratings"."value" BETWEEN -1 AND 1)
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"object_pk" integer NOT NULL,
	"description" varchar(1024) DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usersvc_logins" (
	"token" varchar(64) NOT NULL,
	"service_id" text NOT NULL,
	CONSTRAINT "usersvc_logins_token_service_id_pk" PRIMARY KEY("token","service_id")
);
--> statement-breakpoint
CREATE TABLE "usersvc_services" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usersvc_sessions" (
	"token" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"timeout_seconds" integer NOT NULL,
	CONSTRAINT "usersvc_sessions_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "usersvc_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "browser_sessions" ADD CONSTRAINT "browser_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jwt_blacklist" ADD CONSTRAINT "jwt_blacklist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_initiators" ADD CONSTRAINT "organisation_initiators_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_initiators" ADD CONSTRAINT "organisation_initiators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_members" ADD CONSTRAINT "organisation_members_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_members" ADD CONSTRAINT "organisation_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phases" ADD CONSTRAINT "phases_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_moderators" ADD CONSTRAINT "project_moderators_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_moderators" ADD CONSTRAINT "project_moderators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_participants" ADD CONSTRAINT "project_participants_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_participants" ADD CONSTRAINT "project_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_target_creator_id_users_id_fk" FOREIGN KEY ("target_creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_obj_comment_creator_id_users_id_fk" FOREIGN KEY ("obj_comment_creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_phase_id_phases_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."phases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_feedback" ADD CONSTRAINT "comment_feedback_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_feedback" ADD CONSTRAINT "comment_feedback_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idea_labels" ADD CONSTRAINT "idea_labels_idea_id_ideas_id_fk" FOREIGN KEY ("idea_id") REFERENCES "public"."ideas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idea_labels" ADD CONSTRAINT "idea_labels_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ideas" ADD CONSTRAINT "ideas_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ideas" ADD CONSTRAINT "ideas_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ideas" ADD CONSTRAINT "ideas_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paragraphs" ADD CONSTRAINT "paragraphs_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "polls" ADD CONSTRAINT "polls_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "polls" ADD CONSTRAINT "polls_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usersvc_logins" ADD CONSTRAINT "usersvc_logins_token_usersvc_sessions_token_fk" FOREIGN KEY ("token") REFERENCES "public"."usersvc_sessions"("token") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usersvc_sessions" ADD CONSTRAINT "usersvc_sessions_user_id_usersvc_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."usersvc_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "browser_sessions_user_idx" ON "browser_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "browser_sessions_expires_idx" ON "browser_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "jwt_blacklist_expires_idx" ON "jwt_blacklist" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "organisation_initiators_user_idx" ON "organisation_initiators" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "organisation_members_user_idx" ON "organisation_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "outbox_recipient_idx" ON "outbox" USING btree ("recipient","id");--> statement-breakpoint
CREATE UNIQUE INDEX "social_accounts_provider_subject_key" ON "social_accounts" USING btree ("provider","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "categories_module_idx" ON "categories" USING btree ("module_id");--> statement-breakpoint
CREATE UNIQUE INDEX "follows_project_creator_key" ON "follows" USING btree ("project_id","creator_id");--> statement-breakpoint
CREATE INDEX "follows_creator_idx" ON "follows" USING btree ("creator_id","enabled");--> statement-breakpoint
CREATE INDEX "labels_module_idx" ON "labels" USING btree ("module_id");--> statement-breakpoint
CREATE INDEX "modules_project_idx" ON "modules" USING btree ("project_id","weight");--> statement-breakpoint
CREATE INDEX "phases_module_idx" ON "phases" USING btree ("module_id","weight","id");--> statement-breakpoint
CREATE INDEX "phases_end_idx" ON "phases" USING btree ("end_date");--> statement-breakpoint
CREATE INDEX "project_moderators_user_idx" ON "project_moderators" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "project_participants_user_idx" ON "project_participants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "projects_organisation_idx" ON "projects" USING btree ("organisation_id");--> statement-breakpoint
CREATE INDEX "projects_listing_idx" ON "projects" USING btree ("created") WHERE NOT "projects"."is_draft" AND NOT "projects"."is_archived";--> statement-breakpoint
CREATE INDEX "actions_obj_idx" ON "actions" USING btree ("obj_type","obj_id");--> statement-breakpoint
CREATE INDEX "actions_target_creator_feed_idx" ON "actions" USING btree ("target_creator_id","timestamp");--> statement-breakpoint
CREATE INDEX "actions_obj_comment_creator_feed_idx" ON "actions" USING btree ("obj_comment_creator_id","timestamp");--> statement-breakpoint
CREATE INDEX "actions_project_idx" ON "actions" USING btree ("project_id","timestamp");--> statement-breakpoint
CREATE INDEX "comments_object_idx" ON "comments" USING btree ("content_type","object_pk","created");--> statement-breakpoint
CREATE INDEX "comments_project_idx" ON "comments" USING btree ("project_id","created");--> statement-breakpoint
CREATE INDEX "comments_creator_idx" ON "comments" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "ideas_module_idx" ON "ideas" USING btree ("module_id","created");--> statement-breakpoint
CREATE INDEX "ideas_creator_idx" ON "ideas" USING btree ("creator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ratings_object_creator_key" ON "ratings" USING btree ("content_type","object_pk","creator_id");--> statement-breakpoint
CREATE INDEX "reports_object_idx" ON "reports" USING btree ("content_type","object_pk");--> statement-breakpoint
CREATE INDEX "usersvc_sessions_ends_idx" ON "usersvc_sessions" USING btree ("ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "usersvc_users_name_key" ON "usersvc_users" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "usersvc_users_email_key" ON "usersvc_users" USING btree (lower("email"));