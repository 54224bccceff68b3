CREATE TABLE "poll_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"creator_id" integer,
	"voter_token" uuid,
	"answer" varchar(750) NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "poll_choices" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"label" varchar(255) NOT NULL,
	"is_other_choice" boolean DEFAULT false NOT NULL,
	"weight" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "poll_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"poll_id" integer NOT NULL,
	"label" varchar(255) NOT NULL,
	"help_text" varchar(250) DEFAULT '' NOT NULL,
	"weight" smallint DEFAULT 0 NOT NULL,
	"multiple_choice" boolean DEFAULT false NOT NULL,
	"is_open" boolean DEFAULT false NOT NULL,
	"is_confidential" boolean DEFAULT false NOT NULL,
	"image" text,
	"image_alt_text" varchar(80) DEFAULT '' NOT NULL,
	CONSTRAINT "poll_questions_open_single" CHECK (not ("poll_questions"."is_open" and "poll_questions"."multiple_choice"))
);
--> statement-breakpoint
CREATE TABLE "poll_votes" (
	"id" serial PRIMARY KEY NOT NULL,
	"choice_id" integer NOT NULL,
	"creator_id" integer,
	"voter_token" uuid,
	"other_choice_answer" varchar(250),
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "polls" ADD COLUMN "allow_unregistered_users" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "polls" ADD COLUMN "hide_results_until_finished" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "poll_answers" ADD CONSTRAINT "poll_answers_question_id_poll_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."poll_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_answers" ADD CONSTRAINT "poll_answers_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_choices" ADD CONSTRAINT "poll_choices_question_id_poll_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."poll_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_questions" ADD CONSTRAINT "poll_questions_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_choice_id_poll_choices_id_fk" FOREIGN KEY ("choice_id") REFERENCES "public"."poll_choices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "poll_answers_question_creator" ON "poll_answers" USING btree ("question_id","creator_id") WHERE "poll_answers"."creator_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "poll_answers_creator_idx" ON "poll_answers" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "poll_choices_question_idx" ON "poll_choices" USING btree ("question_id","weight");--> statement-breakpoint
CREATE UNIQUE INDEX "poll_choices_one_other" ON "poll_choices" USING btree ("question_id") WHERE "poll_choices"."is_other_choice";--> statement-breakpoint
CREATE INDEX "poll_questions_poll_idx" ON "poll_questions" USING btree ("poll_id","weight");--> statement-breakpoint
CREATE UNIQUE INDEX "poll_votes_choice_creator" ON "poll_votes" USING btree ("choice_id","creator_id") WHERE "poll_votes"."creator_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "poll_votes_choice_token" ON "poll_votes" USING btree ("choice_id","voter_token") WHERE "poll_votes"."voter_token" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "poll_votes_creator_idx" ON "poll_votes" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "polls_module_idx" ON "polls" USING btree ("module_id");