import type { LayoutId } from '../../../viewer/hanging-protocols';

/** The arrangements of viewports a study can be read in: one series, or two or four side by side. */
export const VIEWER_LAYOUTS = [
  { id: '1x1', label: '1 × 1', cells: 1 },
  { id: '1x2', label: '1 × 2', cells: 2 },
  { id: '2x2', label: '2 × 2', cells: 4 },
] as const satisfies readonly { id: LayoutId; label: string; cells: number }[];

export type ViewerLayout = (typeof VIEWER_LAYOUTS)[number];

export function layoutOf(id: LayoutId): ViewerLayout {
  return VIEWER_LAYOUTS.find((layout) => layout.id === id) ?? VIEWER_LAYOUTS[0];
}

/**
 * The series each viewport shows: the first one's as decided for the page, then each other
 * viewport's choice or else the next series of images not shown yet; null leaves it empty.
 */
export function seriesOfCells(
  cells: number,
  first: string | null,
  chosen: readonly (string | null | undefined)[],
  seriesOfImages: readonly string[],
): (string | null)[] {
  const shown = new Set([first, ...chosen].filter((uid): uid is string => Boolean(uid)));
  const unshown = seriesOfImages.filter((uid) => !shown.has(uid));
  const result: (string | null)[] = [first];
  for (let cell = 1; cell < cells; cell += 1) {
    result.push(chosen[cell] ?? unshown.shift() ?? null);
  }
  return result;
}
