-- Issue 22.1: rich text stored as plain text (typed without the editor, from the app, or an imprint
-- address) showed and exported as one run-on paragraph. Where a value has no block element but line
-- breaks, make paragraphs as text/html.ts paragraphsOfPlainText does for new input: a blank line (or two
-- <br>) starts a paragraph, a single line break becomes <br>. Values with paragraphs are left alone.
-- (Paragraph boundaries that Chromium's <div>s had and the old sanitiser dropped were never stored.)
DO $$
DECLARE
  field record;
BEGIN
  FOR field IN SELECT * FROM (VALUES
    ('ideas', 'description'), ('ideas', 'moderator_feedback_text'), ('comment_feedback', 'feedback_text'),
    ('projects', 'information'), ('projects', 'result'),
    ('organisations', 'imprint'), ('organisations', 'terms_of_use'), ('organisations', 'data_protection'), ('organisations', 'netiquette'),
    ('organisation_translations', 'information'), ('newsletters', 'body'), ('platform_pages', 'body')
  ) AS rich_text (tab, col) LOOP
    EXECUTE format(
      $sql$UPDATE %1$I SET %2$I = '<p>' || regexp_replace(regexp_replace(btrim(%2$I, E' \t\r\n'), '(\r?\n[ \t]*){2,}|(<br\s*/?>\s*){2,}', '</p><p>', 'gi'), '\r?\n', '<br>', 'g') || '</p>'
        WHERE %2$I !~* '<(p|div|ul|ol|li|h[1-6]|blockquote|figure)[\s>/]' AND %2$I ~* '\n|<br\s*/?>'$sql$,
      field.tab, field.col);
  END LOOP;
END
$$;
