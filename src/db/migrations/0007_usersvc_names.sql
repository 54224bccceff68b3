-- User/session service: names are stored trimmed and are unique regardless of case.
-- Existing names are trimmed; where that or the case leaves two users with one name, the older user
-- keeps it and each later one gets "-<id>" appended (docs/usersvc.md), so the index can be built.
DROP INDEX "usersvc_users_name_key";--> statement-breakpoint
UPDATE "usersvc_users" SET "name" = btrim("name", E' \t\n\r\u00a0') WHERE "name" <> btrim("name", E' \t\n\r\u00a0');--> statement-breakpoint
UPDATE "usersvc_users" u SET "name" = u."name" || '-' || u."id"
  WHERE EXISTS (SELECT 1 FROM "usersvc_users" o WHERE lower(o."name") = lower(u."name") AND o."id" < u."id");--> statement-breakpoint
CREATE UNIQUE INDEX "usersvc_users_name_key" ON "usersvc_users" USING btree (lower("name"));
