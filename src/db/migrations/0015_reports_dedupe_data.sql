-- Issue 21, finding 9: one report per user and object. Keep each user's first report of an object
-- (the others repeat it) before the unique index of the next migration is made.
DELETE FROM "reports" r
USING "reports" k
WHERE k."creator_id" = r."creator_id" AND k."content_type" = r."content_type" AND k."object_pk" = r."object_pk" AND k."id" < r."id";
