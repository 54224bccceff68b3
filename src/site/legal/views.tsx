import type { ChallengeQuestion } from '../../http/challenge.js';
import { t } from '../../i18n/index.js';
import { ChallengeField } from '../../web/challenge.js';
import type { PageContext } from '../../web/context.js';
import { Input, TextArea } from '../../web/controls.js';
import { CsrfField, FormErrors, Layout } from '../../web/layout.js';
import { CONTACT_LIMITS, type ContactMessage } from '../../core/legal/rules.js';

/** The contact form (a+ CMS contact page): its messages reach the platform's operators by e-mail. */
export function ContactPage({ page, values, errors, question }: { page: PageContext; values: ContactMessage; errors: Record<string, string[]>; question: ChallengeQuestion }) {
  const { lang } = page;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  return (
    <Layout page={page} title={t(lang, 'Contact')}>
      <h1>{t(lang, 'Contact')}</h1>
      <p>{t(lang, 'Questions about this platform? Write to its operators; they answer by e-mail.')}</p>
      <FormErrors errors={tr(errors.non_field_errors)} />
      <form method="post" action="/contact/" class="contact-form" noValidate>
        <CsrfField page={page} />
        <Input name="name" label={t(lang, 'Your name')} value={values.name} maxLength={CONTACT_LIMITS.name.maxChars} errors={tr(errors.name)} />
        <Input name="email" type="email" label={t(lang, 'Your e-mail address')} value={values.email} required errors={tr(errors.email)} help={t(lang, 'Only for the answer.')} />
        <Input name="subject" label={t(lang, 'Subject')} value={values.subject} required maxLength={CONTACT_LIMITS.subject.maxChars} errors={tr(errors.subject)} />
        <TextArea name="message" label={t(lang, 'Message')} value={values.message} required rows={8} maxLength={CONTACT_LIMITS.message.maxChars} errors={tr(errors.message)} />
        <ChallengeField page={page} question={question} errors={tr(errors.challenge)} />
        <button type="submit">{t(lang, 'Send message')}</button>
      </form>
    </Layout>
  );
}
