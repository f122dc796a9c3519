/** Money is stored in integer cents and sent in dollars (docs/api.md §1.2). */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}
