/**
 * How long the newsletter form takes to check a 1 MB hostile body (issue 21 finding 13: the former
 * regular expressions backtracked quadratically, minutes at this size; linear work takes about
 * 0.1 s on the 2-core machine). `npx tsx bench/newsletter-body.ts`. The test
 * test/security/newsletter-body-work.unit.test.ts checks the same bodies without measuring time.
 */
import { readNewsletterForm } from '../src/manage/newsletters/rules.js';

/** Bodies that made the former regular expressions over the raw text backtrack quadratically. */
export const HOSTILE_NEWSLETTER_BODIES = {
  'unclosed image tags': '<img '.repeat(200_000),
  'one long image tag with a long alt without a closing quote': `<img alt="${' '.repeat(1_000_000)}`,
  'one long image tag with spaces': `<p>x</p><img src="a.png" ${'a '.repeat(500_000)}>`,
};

if (/[\\/]bench[\\/]newsletter-body\.ts$/.test(process.argv[1] ?? '')) {
  const form = (body: string) => ({ sender_name: 'City', sender_email: 'team@example.org', project: '1', subject: 'News', body });
  for (const [name, body] of Object.entries(HOSTILE_NEWSLETTER_BODIES)) {
    const started = process.hrtime.bigint();
    readNewsletterForm(form(body), [1]);
    console.log(`${name}: ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms`);
  }
}
