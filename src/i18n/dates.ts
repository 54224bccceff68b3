import type { Lang } from './index.js';

const EN_MONTHS_AP = ['Jan.', 'Feb.', 'March', 'April', 'May', 'June', 'July', 'Aug.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'];
const DE_MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
const EN_MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DE_MONTHS_SHORT = ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'];

export interface LocalParts {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number; // 0..23
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date and time of an instant in a time zone. */
export function localParts(date: Date, timeZone: string): LocalParts {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Django's DATE_FORMAT: en "N j, Y" (July 1, 2022), de "j. F Y" (1. Juli 2022). */
export function formatDate(date: Date, lang: Lang, timeZone: string): string {
  const p = localParts(date, timeZone);
  return lang === 'de' ? `${p.day}. ${DE_MONTHS[p.month - 1]} ${p.year}` : `${EN_MONTHS_AP[p.month - 1]} ${p.day}, ${p.year}`;
}

/** Django's TIME_FORMAT: en "P" (5 p.m., 3:07 p.m., noon, midnight), de "H:i". */
export function formatTime(date: Date, lang: Lang, timeZone: string): string {
  const { hour, minute } = localParts(date, timeZone);
  if (lang === 'de') return `${pad(hour)}:${pad(minute)}`;
  if (minute === 0 && hour === 0) return 'midnight';
  if (minute === 0 && hour === 12) return 'noon';
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}${minute ? `:${pad(minute)}` : ''} ${hour < 12 ? 'a.m.' : 'p.m.'}`;
}

/** "date, time": the platform's get_date_display / get_datetime_display. */
export function formatDateTime(date: Date, lang: Lang, timeZone: string): string {
  return `${formatDate(date, lang, timeZone)}, ${formatTime(date, lang, timeZone)}`;
}

/** "d.m.Y", used on project tiles and activity entries. */
export function formatShortDate(date: Date, timeZone: string): string {
  const p = localParts(date, timeZone);
  return `${pad(p.day)}.${pad(p.month)}.${p.year}`;
}

/** "d M Y", the dashboard sidebar's "Since" date. */
export function formatDayMonthYear(date: Date, lang: Lang, timeZone: string): string {
  const p = localParts(date, timeZone);
  return `${pad(p.day)} ${(lang === 'de' ? DE_MONTHS_SHORT : EN_MONTHS_SHORT)[p.month - 1]} ${p.year}`;
}
