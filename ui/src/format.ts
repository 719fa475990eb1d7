// Formatting shared by the views.

/** `n` with `places` decimals and the language's decimal mark ("2,4" in Spanish). */
export function decimals(n: number, places: number, decimal = "."): string {
  return n.toFixed(places).replace(".", decimal);
}

/** US dollars: four decimals below a cent, two above. */
export function formatCost(usd: number, decimal = "."): string {
  if (usd === 0) return "$0";
  return `$${decimals(usd, usd < 0.01 ? 4 : 2, decimal)}`;
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

/** A calendar day ("2026-12-03", or an RFC 3339 instant's day) as the language writes
 * it: "3 Dec 2026", "3 dic 2026". */
export function shortDay(iso: string, locale: string): string {
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
  if (!y || !m || !d) return iso;
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** A file size: "812 MB", "2.4 GB" ("2,4 GB" with a decimal comma). */
export function formatBytes(bytes: number, decimal = "."): string {
  const gb = bytes / 2 ** 30;
  return gb >= 1 ? `${decimals(gb, 1, decimal)} GB` : `${Math.max(0, Math.round(bytes / 2 ** 20))} MB`;
}

/** Dollars in the user's currency at its rate ("4.20 EUR"), as the core says amounts. */
export function formatMoney(usd: number, currency: string, rate: number, decimal = "."): string {
  return `${decimals(usd * rate, 2, decimal)} ${currency}`;
}

/** Text that another sentence follows, ended once: "right?" stays, "no answer" gets a full stop. */
export function ended(text: string): string {
  const trimmed = text.trim();
  return /[.?!…)»"”]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
