import { type Lang, t } from '../i18n/index.js';
import { interpolate } from './interpolate.js';
import { FieldErrors } from './layout.js';
import { organisationTextPath } from '../core/legal/texts.js';

/** The form field that carries the agreement to an organisation's terms of use (§A11.7, §A13). */
export const ORGANISATION_TERMS_FIELD = 'organisation_terms_of_use';

/**
 * The required checkbox "I agree to this organisation's terms of use" with a link to them, shown on
 * the idea and comment forms while the user has not agreed yet (`organisationTermsAsked`).
 */
export function OrganisationTermsField({ lang, id, slug, checked = false, errors = [] }: { lang: Lang; id: string; slug: string; checked?: boolean; errors?: string[] }) {
  return (
    <div class={`field check${errors.length ? ' has-error' : ''}`}>
      <input
        type="checkbox"
        id={id}
        name={ORGANISATION_TERMS_FIELD}
        value="on"
        checked={checked}
        required
        aria-invalid={errors.length ? 'true' : undefined}
        aria-describedby={`${id}_help${errors.length ? ` ${id}_errors` : ''}`}
      />{' '}
      <label for={id}>
        {interpolate(t(lang, "Yes, I have read and agree to this organisation's %(terms)s."), {
          terms: (
            <a href={organisationTextPath(slug, 'terms-of-use')} target="_blank" rel="noopener">
              {t(lang, 'terms of use')}
            </a>
          ),
        })}
      </label>
      <p class="help" id={`${id}_help`}>
        {interpolate(t(lang, 'You can withdraw it later under %(agreements)s.'), { agreements: <a href="/account/agreements/">{t(lang, 'User agreements')}</a> })}
      </p>
      <FieldErrors id={`${id}_errors`} errors={errors.map((e) => t(lang, e))} />
    </div>
  );
}
