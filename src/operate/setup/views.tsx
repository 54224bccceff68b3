import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { Input } from '../../web/controls.js';
import { CsrfField, FormErrors, Layout } from '../../web/layout.js';
import { SETUP_ORGANISATION_PATH, SETUP_PATH } from '../../web/paths.js';
import { ORGANISATION_NAME_MAX_LENGTH } from '../../core/organisations/rules.js';
import { EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../../core/users/rules.js';

interface SetupForm {
  values: Record<string, string>;
  errors: Record<string, string[]>;
}

const STEPS = 4;
const stepOf = (page: PageContext, step: number) => t(page.lang, 'Step %(step)s of %(steps)s', { step, steps: STEPS });

/** Step 1: the operator's account, opened by the setup code of the start log. */
export function OperatorSetupPage({ page, form }: { page: PageContext; form: SetupForm }) {
  const { lang } = page;
  const { values, errors } = form;
  return (
    <Layout page={page} title={t(lang, 'Set up this platform')}>
      <p class="lead">{stepOf(page, 1)}</p>
      <h1>{t(lang, 'Set up this platform')}</h1>
      <p>{t(lang, 'This platform has no operator yet. Create your operator account; next you create the first organisation, its legal texts and its first project.')}</p>
      <form method="post" action={SETUP_PATH} noValidate>
        <CsrfField page={page} />
        <FormErrors errors={errors.non_field_errors} />
        <Input
          name="code"
          label={t(lang, 'Setup code')}
          value={values.code}
          maxLength={40}
          required
          errors={errors.code}
          help={t(lang, 'The server printed it in its start log (the window where npm start runs): "enter the setup code XXXX-XXXX-XXXX".')}
        />
        <Input name="username" label={t(lang, 'Username')} value={values.username} maxLength={USERNAME_MAX_LENGTH} required errors={errors.username} />
        <Input name="email" type="email" label={t(lang, 'E-mail address')} value={values.email} maxLength={EMAIL_MAX_LENGTH} required errors={errors.email} />
        <Input name="password" type="password" label={t(lang, 'Password')} required errors={errors.password} help={t(lang, 'At least 8 characters, not only digits.')} />
        <button type="submit">{t(lang, 'Create the operator account')}</button>
      </form>
    </Layout>
  );
}

/** Step 2: the first organisation and its initiator (the operator herself unless she names another account). */
export function OrganisationSetupPage({ page, form }: { page: PageContext; form: SetupForm }) {
  const { lang } = page;
  const { values, errors } = form;
  return (
    <Layout page={page} title={t(lang, 'Your first organisation')}>
      <p class="lead">{stepOf(page, 2)}</p>
      <h1>{t(lang, 'Your first organisation')}</h1>
      <p>{t(lang, 'An organisation (a city, a district, an association) runs projects. Its initiators create and publish them in its dashboard.')}</p>
      <form method="post" action={SETUP_ORGANISATION_PATH} noValidate>
        <CsrfField page={page} />
        <Input name="name" label={t(lang, 'Name of the organisation')} value={values.name} maxLength={ORGANISATION_NAME_MAX_LENGTH} required errors={errors.name} />
        <Input
          name="initiator"
          label={t(lang, 'Initiator (username or e-mail address)')}
          value={values.initiator}
          maxLength={EMAIL_MAX_LENGTH}
          required
          errors={errors.initiator}
          help={t(lang, 'Your own username makes you the initiator. Someone else needs an account first; you can appoint more initiators later in the back-office.')}
        />
        <button type="submit">{t(lang, 'Create the organisation')}</button>
      </form>
    </Layout>
  );
}
