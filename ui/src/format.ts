// Formatting shared by the views.

/** US dollars: four decimals below a cent, two above. */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** Whole numbers with thousands grouped ("126,976"); done by hand because the
 *  webview's Intl data may lack grouping for the user's locale. */
export function groupDigits(n: number, separator: string): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** A 24-hour "HH:MM" of an RFC 3339 instant, in the webview's zone. */
export function hm(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hour12: false }).format(new Date(iso));
}

/** A file size: "812 MB", "2.4 GB". */
export function formatBytes(bytes: number): string {
  const gb = bytes / 2 ** 30;
  return gb >= 1 ? `${gb.toFixed(1)} GB` : `${Math.max(0, Math.round(bytes / 2 ** 20))} MB`;
}

/** Dollars in the user's currency at its rate ("4.20 EUR"), as the core says amounts. */
export function formatMoney(usd: number, currency: string, rate: number): string {
  return `${(usd * rate).toFixed(2)} ${currency}`;
}
