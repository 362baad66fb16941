// Numbers, dates and days in the user's locale.
import { h } from './dom.js';

const numberFormat = new Intl.NumberFormat();
export const compactFormat = new Intl.NumberFormat(undefined, { notation: 'compact' }); // chart ticks: 1.5K, 2M
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// Usage days are UTC calendar days: format them in UTC so they don't shift by the user's offset.
export const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
export const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
export const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function timeEl(iso, format) {
  if (!iso) return 'never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return h('time', { datetime: iso, title: iso }, (format || dateTimeFormat).format(date));
}

export function formatCu(value) {
  return numberFormat.format(value);
}

/** A usage day, "YYYY-MM-DD" (a UTC calendar day), in the user's locale. */
export function formatDay(day) {
  return dayFormat.format(new Date(day + 'T00:00:00Z'));
}
