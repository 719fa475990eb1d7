// Formatting shared by the views.

/** US dollars: four decimals below a cent, two above. */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
