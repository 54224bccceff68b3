-- Issue 22.5: a comment its author deleted leaves nothing to moderate; the moderation queue listed
-- such comments as unread. removeComment now marks them read; this does the same for those deleted before.
UPDATE "comments" SET "is_reviewed" = true WHERE "is_removed" AND NOT "is_reviewed";
