CREATE TABLE "live_event_media" (
	"module_id" integer PRIMARY KEY NOT NULL,
	"live_stream" text DEFAULT '' NOT NULL,
	"event_image" text,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"topic" varchar(100) NOT NULL,
	"event" varchar(50) NOT NULL,
	"data" jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_question_likes" (
	"id" serial PRIMARY KEY NOT NULL,
	"session" varchar(255) NOT NULL,
	"live_question_id" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"text" text NOT NULL,
	"category_id" integer,
	"is_answered" boolean DEFAULT false NOT NULL,
	"is_on_shortlist" boolean DEFAULT false NOT NULL,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"is_live" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "comments" DROP CONSTRAINT "comments_content_type_check";--> statement-breakpoint
ALTER TABLE "live_event_media" ADD CONSTRAINT "live_event_media_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_question_likes" ADD CONSTRAINT "live_question_likes_live_question_id_live_questions_id_fk" FOREIGN KEY ("live_question_id") REFERENCES "public"."live_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_questions" ADD CONSTRAINT "live_questions_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_questions" ADD CONSTRAINT "live_questions_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_events_topic_idx" ON "live_events" USING btree ("topic","id");--> statement-breakpoint
CREATE INDEX "live_events_created_idx" ON "live_events" USING btree ("created");--> statement-breakpoint
CREATE UNIQUE INDEX "live_question_likes_session_idx" ON "live_question_likes" USING btree ("live_question_id","session");--> statement-breakpoint
CREATE INDEX "live_questions_module_idx" ON "live_questions" USING btree ("module_id","created");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_content_type_check" CHECK (content_type IN ('project', 'module', 'phase', 'idea', 'mapidea', 'proposal', 'poll', 'chapter', 'paragraph', 'subject', 'topic', 'livequestion', 'comment', 'rating', 'report', 'moderatorcommentfeedback'));