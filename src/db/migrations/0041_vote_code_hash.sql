DROP INDEX "budget_vote_codes_code_idx";--> statement-breakpoint
ALTER TABLE "budget_vote_codes" ALTER COLUMN "code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "budget_vote_codes" ADD COLUMN "code_hash" varchar(64);--> statement-breakpoint
CREATE UNIQUE INDEX "budget_vote_codes_code_hash_idx" ON "budget_vote_codes" USING btree ("code_hash");