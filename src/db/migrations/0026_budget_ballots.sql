CREATE TABLE "budget_ballot_choices" (
	"ballot_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	CONSTRAINT "budget_ballot_choices_ballot_id_proposal_id_pk" PRIMARY KEY("ballot_id","proposal_id")
);
--> statement-breakpoint
CREATE TABLE "budget_ballots" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"user_id" integer,
	"vote_code_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "budget_settings" (
	"module_id" integer PRIMARY KEY NOT NULL,
	"support_limit" integer,
	"support_threshold" integer DEFAULT 0 NOT NULL,
	"total_budget" integer,
	"rule" varchar(8) DEFAULT 'percent' NOT NULL,
	"min_percent" smallint DEFAULT 70 NOT NULL,
	"min_proposals" integer DEFAULT 1 NOT NULL,
	"max_proposals" integer DEFAULT 5 NOT NULL,
	"modified" timestamp with time zone,
	CONSTRAINT "budget_settings_rule_check" CHECK ("budget_settings"."rule" IN ('percent', 'count')),
	CONSTRAINT "budget_settings_percent_check" CHECK ("budget_settings"."min_percent" BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE TABLE "budget_vote_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"module_id" integer NOT NULL,
	"code" varchar(16) NOT NULL,
	"used" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proposal_supports" (
	"proposal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"module_id" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proposal_supports_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "budget_ballot_choices" ADD CONSTRAINT "budget_ballot_choices_ballot_id_budget_ballots_id_fk" FOREIGN KEY ("ballot_id") REFERENCES "public"."budget_ballots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_ballot_choices" ADD CONSTRAINT "budget_ballot_choices_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_ballots" ADD CONSTRAINT "budget_ballots_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_ballots" ADD CONSTRAINT "budget_ballots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_ballots" ADD CONSTRAINT "budget_ballots_vote_code_id_budget_vote_codes_id_fk" FOREIGN KEY ("vote_code_id") REFERENCES "public"."budget_vote_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_settings" ADD CONSTRAINT "budget_settings_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_vote_codes" ADD CONSTRAINT "budget_vote_codes_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_supports" ADD CONSTRAINT "proposal_supports_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_supports" ADD CONSTRAINT "proposal_supports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposal_supports" ADD CONSTRAINT "proposal_supports_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budget_ballot_choices_proposal_idx" ON "budget_ballot_choices" USING btree ("proposal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "budget_ballots_module_user_idx" ON "budget_ballots" USING btree ("module_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "budget_ballots_code_idx" ON "budget_ballots" USING btree ("vote_code_id");--> statement-breakpoint
CREATE UNIQUE INDEX "budget_vote_codes_code_idx" ON "budget_vote_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "budget_vote_codes_module_idx" ON "budget_vote_codes" USING btree ("module_id","id");--> statement-breakpoint
CREATE INDEX "proposal_supports_module_user_idx" ON "proposal_supports" USING btree ("module_id","user_id");