import { cleanRichText, imagesWithoutAltText, stripTags } from '../../text/html.js';
import type { FormBody } from '../../web/forms.js';
import { isEmail } from '../projects/input.js';

/** The newsletter form (§B18.1): its fields, checked once for the page (and any later entry point). */
const NEWSLETTER_FIELDS = ['sender_name', 'sender_email', 'project', 'subject', 'body'] as const;
/** The longest sender name, sender e-mail address and subject (a+'s limit). */
export const NEWSLETTER_TEXT_MAX_LENGTH = 254;

export type NewsletterValues = Record<(typeof NEWSLETTER_FIELDS)[number], string>;

export interface NewsletterInput {
  senderName: string;
  senderEmail: string;
  projectId: number;
  subject: string;
  body: string;
}

/** Field errors are English catalogue keys. */
export function readNewsletterForm(body: FormBody, projectIds: number[]): { values: NewsletterValues; errors: Record<string, string[]>; input: NewsletterInput | null } {
  const values = Object.fromEntries(NEWSLETTER_FIELDS.map((name) => [name, (body[name] ?? '').trim()])) as NewsletterValues;
  const errors: Record<string, string[]> = {};
  const required = (name: keyof NewsletterValues) => {
    if (!values[name] || (name === 'body' && !stripTags(values.body).trim() && !/<img\b/i.test(values.body))) errors[name] = ['This field is required.'];
  };
  (['sender_name', 'project', 'subject', 'body'] as const).forEach(required);
  for (const name of ['sender_name', 'subject', 'sender_email'] as const) {
    if (values[name].length > NEWSLETTER_TEXT_MAX_LENGTH) errors[name] = ['Ensure this field has no more than %(max)s characters.'];
  }
  if (values.sender_email && !errors.sender_email && !isEmail(values.sender_email)) errors.sender_email = ['Enter a valid email address.'];
  const projectId = Number(values.project);
  if (values.project && !projectIds.includes(projectId)) errors.project = ['Select a valid choice.'];
  if (!errors.body && imagesWithoutAltText(values.body) > 0) errors.body = ['Please add an alternative text for all images.'];
  if (Object.keys(errors).length) return { values, errors, input: null };
  return { values, errors, input: { senderName: values.sender_name, senderEmail: values.sender_email, projectId, subject: values.subject, body: cleanRichText(values.body) } };
}
