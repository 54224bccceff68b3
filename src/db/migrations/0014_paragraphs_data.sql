-- Issue 22.1: rich text stored as plain text (typed without the editor, from the app, or an imprint
-- address) showed and exported as one run-on paragraph. Where a value has no block element but line
-- breaks, make paragraphs as text/html.ts paragraphsOfPlainText does for new input: a blank line (or two
-- <br>) starts a paragraph, a single line break becomes <br>. Values with paragraphs are left alone.
-- (Paragraph boundaries that Chromium's <div>s had and the old sanitiser dropped were never stored.)
UPDATE "ideas" SET "description" = '<p>' || regexp_replace(regexp_replace(btrim("description", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "description" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "description" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "ideas" SET "moderator_feedback_text" = '<p>' || regexp_replace(regexp_replace(btrim("moderator_feedback_text", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "moderator_feedback_text" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "moderator_feedback_text" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "comment_feedback" SET "feedback_text" = '<p>' || regexp_replace(regexp_replace(btrim("feedback_text", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "feedback_text" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "feedback_text" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "projects" SET "information" = '<p>' || regexp_replace(regexp_replace(btrim("information", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "information" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "information" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "projects" SET "result" = '<p>' || regexp_replace(regexp_replace(btrim("result", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "result" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "result" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "organisations" SET "imprint" = '<p>' || regexp_replace(regexp_replace(btrim("imprint", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "imprint" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "imprint" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "organisations" SET "terms_of_use" = '<p>' || regexp_replace(regexp_replace(btrim("terms_of_use", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "terms_of_use" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "terms_of_use" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "organisations" SET "data_protection" = '<p>' || regexp_replace(regexp_replace(btrim("data_protection", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "data_protection" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "data_protection" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "organisations" SET "netiquette" = '<p>' || regexp_replace(regexp_replace(btrim("netiquette", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "netiquette" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "netiquette" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "organisation_translations" SET "information" = '<p>' || regexp_replace(regexp_replace(btrim("information", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "information" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "information" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "newsletters" SET "body" = '<p>' || regexp_replace(regexp_replace(btrim("body", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "body" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "body" ~* '\n|<br\s*/?>';
--> statement-breakpoint
UPDATE "platform_pages" SET "body" = '<p>' || regexp_replace(regexp_replace(btrim("body", E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
  WHERE "body" !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND "body" ~* '\n|<br\s*/?>';
