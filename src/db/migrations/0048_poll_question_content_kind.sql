ALTER TABLE "comments" DROP CONSTRAINT "comments_content_type_check";--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_content_type_check" CHECK (content_type IN ('project', 'module', 'phase', 'idea', 'mapidea', 'proposal', 'poll', 'chapter', 'paragraph', 'subject', 'topic', 'livequestion', 'comment', 'rating', 'report', 'moderatorcommentfeedback', 'offlineevent', 'result', 'pollquestion'));
--> statement-breakpoint
-- A poll question's ratings, reports and remarks show on its poll's page: the page-change functions know the new kind.
CREATE OR REPLACE FUNCTION "page_project_of"(kind text, pk integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(CASE kind
    WHEN 'project' THEN pk
    WHEN 'module' THEN (SELECT project_id FROM modules WHERE id = pk)
    WHEN 'phase' THEN (SELECT m.project_id FROM phases x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'idea' THEN (SELECT m.project_id FROM ideas x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'mapidea' THEN (SELECT m.project_id FROM map_ideas x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'proposal' THEN (SELECT m.project_id FROM proposals x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'poll' THEN (SELECT m.project_id FROM polls x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'pollquestion' THEN (SELECT m.project_id FROM poll_questions q JOIN polls x ON x.id = q.poll_id JOIN modules m ON m.id = x.module_id WHERE q.id = pk)
    WHEN 'chapter' THEN (SELECT m.project_id FROM chapters x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'paragraph' THEN (SELECT m.project_id FROM paragraphs p JOIN chapters x ON x.id = p.chapter_id JOIN modules m ON m.id = x.module_id WHERE p.id = pk)
    WHEN 'subject' THEN (SELECT m.project_id FROM subjects x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'topic' THEN (SELECT m.project_id FROM topics x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'livequestion' THEN (SELECT m.project_id FROM live_questions x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)
    WHEN 'comment' THEN (SELECT project_id FROM comments WHERE id = pk)
  END, 0)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "page_module_item_of"(kind text, pk integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(CASE kind
    WHEN 'module' THEN pk
    WHEN 'idea' THEN (SELECT module_id FROM ideas WHERE id = pk)
    WHEN 'mapidea' THEN (SELECT module_id FROM map_ideas WHERE id = pk)
    WHEN 'proposal' THEN (SELECT module_id FROM proposals WHERE id = pk)
    WHEN 'poll' THEN (SELECT module_id FROM polls WHERE id = pk)
    WHEN 'pollquestion' THEN (SELECT x.module_id FROM poll_questions q JOIN polls x ON x.id = q.poll_id WHERE q.id = pk)
    WHEN 'chapter' THEN (SELECT module_id FROM chapters WHERE id = pk)
    WHEN 'paragraph' THEN (SELECT x.module_id FROM paragraphs p JOIN chapters x ON x.id = p.chapter_id WHERE p.id = pk)
    WHEN 'subject' THEN (SELECT module_id FROM subjects WHERE id = pk)
    WHEN 'topic' THEN (SELECT module_id FROM topics WHERE id = pk)
    WHEN 'livequestion' THEN (SELECT module_id FROM live_questions WHERE id = pk)
  END, 0)
$$;
