CREATE TABLE "page_changes" (
	"project_id" integer NOT NULL,
	"n" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "page_changes_project" ON "page_changes" USING btree ("project_id","n");
--> statement-breakpoint
-- The pages' change log (db/versions.ts, pageVersionField): each statement that writes a table shown
-- on a project's pages adds a row per project it touched (0: every page), in the writing
-- transaction. Writers only insert; nobody waits on a shared row.
--
-- page_project_of: the project of an object that generic relations (ratings, reports) point at; a
-- kind it does not know counts as every page (safe, only slower).
CREATE FUNCTION "page_project_of"(kind text, pk integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(CASE kind
    WHEN 'project' THEN pk
    WHEN 'module' THEN (SELECT project_id FROM modules WHERE id = pk)
    WHEN 'phase' THEN (SELECT m.project_id FROM phases x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'idea' THEN (SELECT m.project_id FROM ideas x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'mapidea' THEN (SELECT m.project_id FROM map_ideas x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'proposal' THEN (SELECT m.project_id FROM proposals x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'poll' THEN (SELECT m.project_id FROM polls x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'chapter' THEN (SELECT m.project_id FROM chapters x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'paragraph' THEN (SELECT m.project_id FROM paragraphs p JOIN chapters x ON x.id = p.chapter_id JOIN modules m ON m.id = x.module_id WHERE p.id = pk)
    WHEN 'subject' THEN (SELECT m.project_id FROM subjects x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'topic' THEN (SELECT m.project_id FROM topics x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'livequestion' THEN (SELECT m.project_id FROM live_questions x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'comment' THEN (SELECT project_id FROM comments WHERE id = pk)
  END, 0)
$$;
--> statement-breakpoint
-- page_change(select): the trigger of a table's inserts, updates and deletes. Its argument selects
-- the projects of the rows in "changed_rows", which stands for the statement's transition table (an
-- update counts the projects of the rows before and after). Without an argument (truncates, and
-- tables whose rows show on every page) it adds a row for project 0.
CREATE FUNCTION "page_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text;
BEGIN
  IF TG_NARGS = 0 OR TG_OP = 'TRUNCATE' THEN
    INSERT INTO "page_changes" ("project_id") VALUES (0);
    RETURN NULL;
  END IF;
  touched := CASE TG_OP
    WHEN 'INSERT' THEN replace(TG_ARGV[0], 'changed_rows', 'new_rows')
    WHEN 'DELETE' THEN replace(TG_ARGV[0], 'changed_rows', 'old_rows')
    ELSE replace(TG_ARGV[0], 'changed_rows', 'old_rows') || ' UNION ' || replace(TG_ARGV[0], 'changed_rows', 'new_rows')
  END;
  EXECUTE 'INSERT INTO "page_changes" ("project_id") SELECT DISTINCT coalesce(p, 0) FROM (' || touched || ') AS touched(p)';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "comments_page_insert" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "comments_page_update" AFTER UPDATE ON "comments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "comments_page_delete" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "comments_page_truncate" AFTER TRUNCATE ON "comments" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "follows_page_insert" AFTER INSERT ON "follows" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "follows_page_update" AFTER UPDATE ON "follows" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "follows_page_delete" AFTER DELETE ON "follows" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "follows_page_truncate" AFTER TRUNCATE ON "follows" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "project_moderators_page_insert" AFTER INSERT ON "project_moderators" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_moderators_page_update" AFTER UPDATE ON "project_moderators" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_moderators_page_delete" AFTER DELETE ON "project_moderators" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_moderators_page_truncate" AFTER TRUNCATE ON "project_moderators" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "project_participants_page_insert" AFTER INSERT ON "project_participants" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_participants_page_update" AFTER UPDATE ON "project_participants" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_participants_page_delete" AFTER DELETE ON "project_participants" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_participants_page_truncate" AFTER TRUNCATE ON "project_participants" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "project_invites_page_insert" AFTER INSERT ON "project_invites" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_invites_page_update" AFTER UPDATE ON "project_invites" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_invites_page_delete" AFTER DELETE ON "project_invites" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT r.project_id FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "project_invites_page_truncate" AFTER TRUNCATE ON "project_invites" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_insert" AFTER INSERT ON "comment_feedback" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id FROM changed_rows r JOIN comments c ON c.id = r.comment_id');
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_update" AFTER UPDATE ON "comment_feedback" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id FROM changed_rows r JOIN comments c ON c.id = r.comment_id');
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_delete" AFTER DELETE ON "comment_feedback" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT c.project_id FROM changed_rows r JOIN comments c ON c.id = r.comment_id');
--> statement-breakpoint
CREATE TRIGGER "comment_feedback_page_truncate" AFTER TRUNCATE ON "comment_feedback" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "ratings_page_insert" AFTER INSERT ON "ratings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "ratings_page_update" AFTER UPDATE ON "ratings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "ratings_page_delete" AFTER DELETE ON "ratings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "ratings_page_truncate" AFTER TRUNCATE ON "ratings" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "reports_page_insert" AFTER INSERT ON "reports" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "reports_page_update" AFTER UPDATE ON "reports" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "reports_page_delete" AFTER DELETE ON "reports" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT page_project_of(r.content_type, r.object_pk) FROM changed_rows r');
--> statement-breakpoint
CREATE TRIGGER "reports_page_truncate" AFTER TRUNCATE ON "reports" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "ideas_page_insert" AFTER INSERT ON "ideas" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "ideas_page_update" AFTER UPDATE ON "ideas" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "ideas_page_delete" AFTER DELETE ON "ideas" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "ideas_page_truncate" AFTER TRUNCATE ON "ideas" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "map_ideas_page_insert" AFTER INSERT ON "map_ideas" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "map_ideas_page_update" AFTER UPDATE ON "map_ideas" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "map_ideas_page_delete" AFTER DELETE ON "map_ideas" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "map_ideas_page_truncate" AFTER TRUNCATE ON "map_ideas" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "proposals_page_insert" AFTER INSERT ON "proposals" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposals_page_update" AFTER UPDATE ON "proposals" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposals_page_delete" AFTER DELETE ON "proposals" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposals_page_truncate" AFTER TRUNCATE ON "proposals" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "categories_page_insert" AFTER INSERT ON "categories" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "categories_page_update" AFTER UPDATE ON "categories" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "categories_page_delete" AFTER DELETE ON "categories" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "categories_page_truncate" AFTER TRUNCATE ON "categories" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "labels_page_insert" AFTER INSERT ON "labels" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "labels_page_update" AFTER UPDATE ON "labels" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "labels_page_delete" AFTER DELETE ON "labels" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "labels_page_truncate" AFTER TRUNCATE ON "labels" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "chapters_page_insert" AFTER INSERT ON "chapters" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "chapters_page_update" AFTER UPDATE ON "chapters" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "chapters_page_delete" AFTER DELETE ON "chapters" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "chapters_page_truncate" AFTER TRUNCATE ON "chapters" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "polls_page_insert" AFTER INSERT ON "polls" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "polls_page_update" AFTER UPDATE ON "polls" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "polls_page_delete" AFTER DELETE ON "polls" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "polls_page_truncate" AFTER TRUNCATE ON "polls" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "subjects_page_insert" AFTER INSERT ON "subjects" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "subjects_page_update" AFTER UPDATE ON "subjects" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "subjects_page_delete" AFTER DELETE ON "subjects" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "subjects_page_truncate" AFTER TRUNCATE ON "subjects" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "topics_page_insert" AFTER INSERT ON "topics" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "topics_page_update" AFTER UPDATE ON "topics" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "topics_page_delete" AFTER DELETE ON "topics" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "topics_page_truncate" AFTER TRUNCATE ON "topics" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_insert" AFTER INSERT ON "live_questions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_update" AFTER UPDATE ON "live_questions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_delete" AFTER DELETE ON "live_questions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_questions_page_truncate" AFTER TRUNCATE ON "live_questions" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "live_event_media_page_insert" AFTER INSERT ON "live_event_media" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_event_media_page_update" AFTER UPDATE ON "live_event_media" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_event_media_page_delete" AFTER DELETE ON "live_event_media" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_event_media_page_truncate" AFTER TRUNCATE ON "live_event_media" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "budget_settings_page_insert" AFTER INSERT ON "budget_settings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_settings_page_update" AFTER UPDATE ON "budget_settings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_settings_page_delete" AFTER DELETE ON "budget_settings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_settings_page_truncate" AFTER TRUNCATE ON "budget_settings" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "budget_ballots_page_insert" AFTER INSERT ON "budget_ballots" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_ballots_page_update" AFTER UPDATE ON "budget_ballots" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_ballots_page_delete" AFTER DELETE ON "budget_ballots" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_ballots_page_truncate" AFTER TRUNCATE ON "budget_ballots" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "budget_vote_codes_page_insert" AFTER INSERT ON "budget_vote_codes" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_vote_codes_page_update" AFTER UPDATE ON "budget_vote_codes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_vote_codes_page_delete" AFTER DELETE ON "budget_vote_codes" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_vote_codes_page_truncate" AFTER TRUNCATE ON "budget_vote_codes" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "proposal_supports_page_insert" AFTER INSERT ON "proposal_supports" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposal_supports_page_update" AFTER UPDATE ON "proposal_supports" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposal_supports_page_delete" AFTER DELETE ON "proposal_supports" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN modules m ON m.id = r.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposal_supports_page_truncate" AFTER TRUNCATE ON "proposal_supports" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "idea_labels_page_insert" AFTER INSERT ON "idea_labels" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN ideas x ON x.id = r.idea_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "idea_labels_page_update" AFTER UPDATE ON "idea_labels" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN ideas x ON x.id = r.idea_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "idea_labels_page_delete" AFTER DELETE ON "idea_labels" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN ideas x ON x.id = r.idea_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "idea_labels_page_truncate" AFTER TRUNCATE ON "idea_labels" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "map_idea_labels_page_insert" AFTER INSERT ON "map_idea_labels" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN map_ideas x ON x.id = r.map_idea_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "map_idea_labels_page_update" AFTER UPDATE ON "map_idea_labels" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN map_ideas x ON x.id = r.map_idea_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "map_idea_labels_page_delete" AFTER DELETE ON "map_idea_labels" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN map_ideas x ON x.id = r.map_idea_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "map_idea_labels_page_truncate" AFTER TRUNCATE ON "map_idea_labels" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "proposal_labels_page_insert" AFTER INSERT ON "proposal_labels" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN proposals x ON x.id = r.proposal_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposal_labels_page_update" AFTER UPDATE ON "proposal_labels" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN proposals x ON x.id = r.proposal_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposal_labels_page_delete" AFTER DELETE ON "proposal_labels" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN proposals x ON x.id = r.proposal_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "proposal_labels_page_truncate" AFTER TRUNCATE ON "proposal_labels" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "topic_labels_page_insert" AFTER INSERT ON "topic_labels" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN topics x ON x.id = r.topic_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "topic_labels_page_update" AFTER UPDATE ON "topic_labels" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN topics x ON x.id = r.topic_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "topic_labels_page_delete" AFTER DELETE ON "topic_labels" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN topics x ON x.id = r.topic_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "topic_labels_page_truncate" AFTER TRUNCATE ON "topic_labels" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "paragraphs_page_insert" AFTER INSERT ON "paragraphs" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN chapters x ON x.id = r.chapter_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "paragraphs_page_update" AFTER UPDATE ON "paragraphs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN chapters x ON x.id = r.chapter_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "paragraphs_page_delete" AFTER DELETE ON "paragraphs" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN chapters x ON x.id = r.chapter_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "paragraphs_page_truncate" AFTER TRUNCATE ON "paragraphs" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "poll_questions_page_insert" AFTER INSERT ON "poll_questions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN polls x ON x.id = r.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_questions_page_update" AFTER UPDATE ON "poll_questions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN polls x ON x.id = r.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_questions_page_delete" AFTER DELETE ON "poll_questions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN polls x ON x.id = r.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_questions_page_truncate" AFTER TRUNCATE ON "poll_questions" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "live_question_likes_page_insert" AFTER INSERT ON "live_question_likes" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN live_questions x ON x.id = r.live_question_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_question_likes_page_update" AFTER UPDATE ON "live_question_likes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN live_questions x ON x.id = r.live_question_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_question_likes_page_delete" AFTER DELETE ON "live_question_likes" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN live_questions x ON x.id = r.live_question_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "live_question_likes_page_truncate" AFTER TRUNCATE ON "live_question_likes" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "budget_ballot_choices_page_insert" AFTER INSERT ON "budget_ballot_choices" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN budget_ballots x ON x.id = r.ballot_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_ballot_choices_page_update" AFTER UPDATE ON "budget_ballot_choices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN budget_ballots x ON x.id = r.ballot_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_ballot_choices_page_delete" AFTER DELETE ON "budget_ballot_choices" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN budget_ballots x ON x.id = r.ballot_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "budget_ballot_choices_page_truncate" AFTER TRUNCATE ON "budget_ballot_choices" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "poll_choices_page_insert" AFTER INSERT ON "poll_choices" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_questions q ON q.id = r.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_choices_page_update" AFTER UPDATE ON "poll_choices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_questions q ON q.id = r.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_choices_page_delete" AFTER DELETE ON "poll_choices" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_questions q ON q.id = r.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_choices_page_truncate" AFTER TRUNCATE ON "poll_choices" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "poll_answers_page_insert" AFTER INSERT ON "poll_answers" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_questions q ON q.id = r.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_answers_page_update" AFTER UPDATE ON "poll_answers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_questions q ON q.id = r.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_answers_page_delete" AFTER DELETE ON "poll_answers" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_questions q ON q.id = r.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_answers_page_truncate" AFTER TRUNCATE ON "poll_answers" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "poll_votes_page_insert" AFTER INSERT ON "poll_votes" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_choices c ON c.id = r.choice_id JOIN poll_questions q ON q.id = c.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_votes_page_update" AFTER UPDATE ON "poll_votes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_choices c ON c.id = r.choice_id JOIN poll_questions q ON q.id = c.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_votes_page_delete" AFTER DELETE ON "poll_votes" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "page_change"('SELECT m.project_id FROM changed_rows r JOIN poll_choices c ON c.id = r.choice_id JOIN poll_questions q ON q.id = c.question_id JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id');
--> statement-breakpoint
CREATE TRIGGER "poll_votes_page_truncate" AFTER TRUNCATE ON "poll_votes" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
-- Users show on every page by name and picture (a deleted or deactivated one as such); logins write
-- other columns all the time and so do not count.
CREATE TRIGGER "users_page_update" AFTER UPDATE OF "username", "avatar", "is_active" ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "users_page_delete" AFTER DELETE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "organisation_translations_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organisation_translations" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "organisation_terms_agreements_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organisation_terms_agreements" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "organisation_initiators_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organisation_initiators" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "organisation_members_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organisation_members" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
--> statement-breakpoint
CREATE TRIGGER "platform_pages_page_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "platform_pages" FOR EACH STATEMENT EXECUTE FUNCTION "page_change"();
