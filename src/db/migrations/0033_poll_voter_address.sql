ALTER TABLE "poll_answers" ADD COLUMN "voter_address" varchar(32);--> statement-breakpoint
ALTER TABLE "poll_votes" ADD COLUMN "voter_address" varchar(32);