import { type Lang, t } from '../../i18n/index.js';

/**
 * A module's own words for "Category" and "Label" (a4's CategoryAlias and LabelAlias), set on the
 * dashboard's Categories and Labels components: e.g. "District" for category. '' keeps the
 * platform's words. The help texts stand under the fields of the module's forms.
 */
export interface ModuleAliases {
  categoryAlias: string;
  categoryAliasHelp: string;
  labelAlias: string;
  labelAliasHelp: string;
}

export const NO_ALIASES: ModuleAliases = { categoryAlias: '', categoryAliasHelp: '', labelAlias: '', labelAliasHelp: '' };

/** The limits of a4's alias fields. */
export const ALIAS_MAX = 25;
export const ALIAS_HELP_MAX = 300;

/** The words a module's forms, filters, lists and exports use, in the reader's language unless the module has its own. */
export interface TermWords {
  category: string;
  categories: string;
  label: string;
  labels: string;
  categoryHelp: string;
  labelHelp: string;
}

/** A module's words for its categories and labels: its alias (singular and plural alike, as a4 does), else the catalogue's. */
export function termWords(lang: Lang, aliases: ModuleAliases = NO_ALIASES): TermWords {
  return {
    category: aliases.categoryAlias || t(lang, 'Category'),
    categories: aliases.categoryAlias || t(lang, 'Categories'),
    label: aliases.labelAlias || t(lang, 'Label'),
    labels: aliases.labelAlias || t(lang, 'Labels'),
    categoryHelp: aliases.categoryAliasHelp,
    labelHelp: aliases.labelAliasHelp,
  };
}
