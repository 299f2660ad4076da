/** §4.1.1 `date`: a calendar date YYYY-MM-DD. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** §4.1.1 `datetime`: RFC 3339 date and time with a zone (seconds optional). */
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;
/** The same without a zone, to suggest adding one. */
const ZONELESS_DATETIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

function realDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && realDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Whether `text` is an RFC 3339 datetime with a zone, on a real date and clock time. */
export function isDateTime(text: string): boolean {
  const m = DATETIME.exec(text);
  if (m === null) return false;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  return (
    realDate(Number(m[1]), Number(m[2]), Number(m[3])) && hour < 24 && minute < 60 && second < 60
  );
}

/** Whether `text` would be a datetime if it named its zone. */
export function lacksZone(text: string): boolean {
  return ZONELESS_DATETIME.test(text);
}

/** Unix seconds of an RFC 3339 datetime (call isDateTime first). */
export function dateTimeSeconds(text: string): number {
  return Math.floor(Date.parse(text) / 1000);
}
