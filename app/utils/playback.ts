/** The playback speeds the player offers (issue 35: 0.75× to 2×), for the player and the /api call that keeps the choice. */
export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** A speed as the menu writes it: `1,25×` where the language writes a decimal comma. */
export function rateText(rate: number, decimal: string) {
  return `${String(rate).replace(".", decimal)}×`;
}
