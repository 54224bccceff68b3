import { euros, type Lang, t } from '../../i18n/index.js';
import { FieldErrors } from '../../web/layout.js';
import { errorAttrs } from '../idealike/views.js';


export function BudgetField({ lang, value, errors }: { lang: Lang; value: string; errors?: string[] }) {
  return (
    <div class={`field${errors ? ' has-error' : ''}`}>
      <label for="id_budget">{t(lang, 'Budget (whole euros)')}</label>
      <input id="id_budget" name="budget" type="text" inputMode="numeric" required value={value} {...errorAttrs('id_budget', errors, true)} />
      <p class="help" id="id_budget_help">
        {t(lang, 'Required budget')}
      </p>
      <FieldErrors id="id_budget_errors" errors={errors?.map((e) => t(lang, e))} />
    </div>
  );
}

export function BudgetView({ lang, budget, archived }: { lang: Lang; budget: number; archived: boolean }) {
  return (
    <p class="proposal-budget">
      {t(lang, 'Budget')}: <strong>{euros(lang, budget)}</strong>
      {archived && <span class="badge badge-light"> {t(lang, 'Archived')}</span>}
    </p>
  );
}

/** The moderation form's archive box. */
export function ArchivedField({ lang, checked }: { lang: Lang; checked: boolean }) {
  return (
    <div class="check">
      <input id="id_is_archived" type="checkbox" name="is_archived" value="on" checked={checked} aria-describedby="id_is_archived_help" />
      <label for="id_is_archived">{t(lang, 'Archived')}</label>
      <p class="help" id="id_is_archived_help">
        {t(lang, 'Exclude this proposal from all listings by default. You can still access this proposal by using filters.')}
      </p>
    </div>
  );
}

/** The list's archived filter (default: not archived). */
export function ArchivedFilter({ lang, value }: { lang: Lang; value: string }) {
  return (
    <div class="field">
      <label for="id_is_archived_filter">{t(lang, 'Archived')}</label>
      <select id="id_is_archived_filter" name="is_archived">
        <option value="" selected={value === ''}>
          {t(lang, 'All')}
        </option>
        <option value="false" selected={value === 'false'}>
          {t(lang, 'No')}
        </option>
        <option value="true" selected={value === 'true'}>
          {t(lang, 'Yes')}
        </option>
      </select>
    </div>
  );
}
