import type { Lang } from './index.js';

const EN_MONTHS_AP = ['Jan.', 'Feb.', 'March', 'April', 'May', 'June', 'July', 'Aug.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'];
const DE_MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];

interface LocalParts {
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
function formatTime(date: Date, lang: Lang, timeZone: string): string {
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

/** "d.m.Y": only where a machine-like date is wanted (the app API); pages show formatDate, one format per language. */
export function formatShortDate(date: Date, timeZone: string): string {
  const p = localParts(date, timeZone);
  return `${pad(p.day)}.${pad(p.month)}.${p.year}`;
}

/** `YYYY-MM-DDTHH:MM` (a datetime-local input) for an instant, in a time zone. */
export function toLocalInput(date: Date, timeZone: string): string {
  const p = localParts(date, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** The instant a wall-clock `YYYY-MM-DDTHH:MM` (or `YYYY-MM-DD`, read as 23:59) means in a time zone; null if it is no such time. */
export function fromLocalInput(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = [match[1], match[2], match[3], match[4] ?? '23', match[5] ?? '59'].map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The zone's offset at that moment, found by comparing the wall clock the guess shows; twice for DST edges.
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = localParts(new Date(guess), timeZone);
    guess += wall - Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  }
  return new Date(guess);
}

/** ISO 8601 with the zone's offset, to the second: `2026-11-23T19:29:05+01:00` (exports, §B16.1). */
export function formatIsoLocal(date: Date, timeZone: string): string {
  const p = localParts(date, timeZone);
  const offset = Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(date.getTime() / 60000) * 60000) / 60000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(date.getUTCSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
