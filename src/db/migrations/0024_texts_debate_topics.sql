CREATE TABLE "subjects" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" varchar(350) DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "topic_labels" (
	"topic_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "topic_labels_topic_id_label_id_pk" PRIMARY KEY("topic_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "comments" DROP CONSTRAINT "comments_content_type_check";--> statement-breakpoint
ALTER TABLE "subjects" ADD CONSTRAINT "subjects_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subjects" ADD CONSTRAINT "subjects_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_labels" ADD CONSTRAINT "topic_labels_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_labels" ADD CONSTRAINT "topic_labels_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subjects_module_idx" ON "subjects" USING btree ("module_id");--> statement-breakpoint
CREATE INDEX "topics_module_idx" ON "topics" USING btree ("module_id");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_content_type_check" CHECK (content_type IN ('project', 'module', 'phase', 'idea', 'poll', 'chapter', 'paragraph', 'subject', 'topic', 'comment', 'rating', 'report', 'moderatorcommentfeedback'));