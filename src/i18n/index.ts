import { de } from './de.js';

export const LANGUAGES = ['en', 'de'] as const;
export type Lang = (typeof LANGUAGES)[number];

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The message catalogue: English text is the key (gettext style), German comes from de.ts.
 * `%(name)s` placeholders are filled from vars.
 */
export function t(lang: Lang, message: string, vars: Record<string, string | number> = {}): string {
  const text = lang === 'de' ? (de[message] ?? message) : message;
  return text.replace(/%\((\w+)\)s/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

const pluralRules = new Map(LANGUAGES.map((lang) => [lang, new Intl.PluralRules(lang)]));

/**
 * Singular or plural form by count, chosen by the language's plural rules (Intl.PluralRules:
 * "one" takes the singular, every other category the plural), through the catalogue.
 */
export function tn(lang: Lang, singular: string, plural: string, count: number, vars: Record<string, string | number> = {}): string {
  const category = pluralRules.get(lang)?.select(count);
  return t(lang, category === 'one' ? singular : plural, { count, ...vars });
}

/** The first supported language in an Accept-Language header, by quality. */
function languageFromHeader(header: string | undefined): Lang | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const base = tag.split('-')[0];
    if (isLang(base)) return base;
  }
  return null;
}

/** The user's language, else the Accept-Language header's, else English. */
export function chooseLanguage(options: { explicit?: string | null; user?: string | null; acceptLanguage?: string }): Lang {
  if (isLang(options.explicit)) return options.explicit;
  if (isLang(options.user)) return options.user;
  return languageFromHeader(options.acceptLanguage) ?? 'en';
}

/** A sum of whole euros in the language's way: `12,500 €` / `12.500 €`. */
export const euros = (lang: Lang, amount: number) => `${new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: 0 }).format(amount)} €`;
