-- Issue 21, finding 12: usernames are unique after NFKC folding and case (as Django normalises them),
-- so that a full-width look-alike ("ｕｓｅｒ") is the same name as "user". Where existing names clash so,
-- the older user keeps the name and each later one is renamed to "<name>-<id>" (as 0007 did for the
-- user/session service); each rename is reported as a NOTICE (tell those users). The next migration
-- builds the folded unique index.
DO $$
DECLARE clash record;
BEGIN
  FOR clash IN
    SELECT u."id", u."username" FROM "users" u
    WHERE EXISTS (SELECT 1 FROM "users" o WHERE lower(normalize(o."username", NFKC)) = lower(normalize(u."username", NFKC)) AND o."id" < u."id")
    ORDER BY u."id"
  LOOP
    UPDATE "users" SET "username" = left(clash."username", 59 - length(clash."id"::text)) || '-' || clash."id" WHERE "id" = clash."id";
    RAISE NOTICE 'username clash: user % ("%") renamed to "%"', clash."id", clash."username", left(clash."username", 59 - length(clash."id"::text)) || '-' || clash."id";
  END LOOP;
END $$;
