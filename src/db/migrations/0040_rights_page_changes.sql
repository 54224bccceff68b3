-- What decides a viewer's rights counts in the version of a project's pages too (db/versions.ts),
-- so that an open live stream learns of it and checks again (http/live.ts, LiveGuard; issue 36.2):
-- an organisation's initiators and members (the projects of that organisation), and an account's
-- superuser and active flags (every page: such a change is rare). The project's own access, draft
-- state, moderators and participants were counted already (migrations 0011 and 0032).
CREATE TRIGGER "organisation_initiators_page_insert" AFTER INSERT ON "organisation_initiators" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "organisation_initiators_page_update" AFTER UPDATE ON "organisation_initiators" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "organisation_initiators_page_delete" AFTER DELETE ON "organisation_initiators" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "organisation_initiators_page_truncate" AFTER TRUNCATE ON "organisation_initiators" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "organisation_members_page_insert" AFTER INSERT ON "organisation_members" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "organisation_members_page_update" AFTER UPDATE ON "organisation_members" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "organisation_members_page_delete" AFTER DELETE ON "organisation_members" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT p.id FROM changed_rows r JOIN projects p ON p.organisation_id = r.organisation_id');
--> statement-breakpoint
CREATE TRIGGER "organisation_members_page_truncate" AFTER TRUNCATE ON "organisation_members" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "users_rights_page_update" AFTER UPDATE OF "is_superuser", "is_active" ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
