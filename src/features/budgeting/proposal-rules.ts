/** The proposal's own rules (participatory budgeting): its budget. */

/** The largest budget a proposal may ask for (the column is a 32-bit integer; adhocracy+ sets no upper limit). */
export const BUDGET_MAX = 2_147_483_647;

/** A budget as entered: whole euros, at least 0 (spaces, dots and apostrophes as thousands separators allowed). */
export function parseBudget(value: string): { budget: number } | { error: string } {
  const digits = value.trim().replace(/[\s.'’]/g, '');
  if (!digits) return { error: 'This field is required.' };
  if (!/^\d{1,10}$/.test(digits)) return { error: 'Enter a whole number of euros, 0 or more.' };
  const budget = Number(digits);
  return budget > BUDGET_MAX ? { error: 'Ensure this value is less than or equal to 2147483647.' } : { budget };
}
