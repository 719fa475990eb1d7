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
