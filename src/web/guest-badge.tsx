import { type Lang, t } from '../i18n/index.js';

/** Marks a contribution by a guest (issue 34.4) beside its author's name: on items, comments and in the moderation queue. */
export const GuestBadge = ({ lang }: { lang: Lang }) => <span class="badge badge-guest">{t(lang, 'Guest')}</span>;
