import type { DicomJsonDataset } from '@ra/shared';

/** A window: the centre and width of the values shown from black to white, in the modality's units. */
export interface Window {
  center: number;
  width: number;
}

export interface WindowPreset extends Window {
  name: string;
  /** The key that applies it, if any. */
  key?: string;
}

/** The usual CT windows in Hounsfield units. */
export const CT_WINDOW_PRESETS: readonly WindowPreset[] = [
  { name: 'Brain', key: '1', center: 40, width: 80 },
  { name: 'Lung', key: '2', center: -600, width: 1500 },
  { name: 'Bone', key: '3', center: 400, width: 1800 },
  { name: 'Abdomen', key: '4', center: 40, width: 400 },
];

/*
 * The renderer works with the range of values shown; DICOM's linear VOI function (PS3.3
 * C.11.2.1.2) maps a window to the range [c - 0.5 - (w - 1) / 2, c - 0.5 + (w - 1) / 2].
 */

/** The window whose linear VOI function shows `lower`…`upper`. */
export function windowOfRange(lower: number, upper: number): Window {
  return { center: (lower + upper + 1) / 2, width: upper - lower + 1 };
}

/** The range of values a window shows under DICOM's linear VOI function. */
export function rangeOfWindow({ center, width }: Window): { lower: number; upper: number } {
  return { lower: center - 0.5 - (width - 1) / 2, upper: center - 0.5 + (width - 1) / 2 };
}

/** The window as the overlay writes it: "W 400 L 40". */
export function formatWindow({ center, width }: Window): string {
  return `W ${Math.round(width)} L ${Math.round(center)}`;
}

const WINDOW_CENTER = '00281050';
const WINDOW_WIDTH = '00281051';
const WINDOW_EXPLANATION = '00281055';

/**
 * The windows a file offers (Window Center and Width may hold several pairs, each with an
 * explanation): for MR, X-ray and any modality, the windows its makers chose.
 */
export function fileWindows(dataset: DicomJsonDataset | undefined): WindowPreset[] {
  const values = (tag: string) => (dataset?.[tag]?.Value ?? []).map(Number);
  const centers = values(WINDOW_CENTER);
  const widths = values(WINDOW_WIDTH);
  const explanations = (dataset?.[WINDOW_EXPLANATION]?.Value ?? []).map(String);
  return centers.flatMap((center, index) => {
    const width = widths[index];
    if (!Number.isFinite(center) || width === undefined || !Number.isFinite(width) || width <= 0) {
      return [];
    }
    const explanation = explanations[index]?.trim();
    return [{ name: `From the file${explanation ? `: ${explanation}` : ''}`, center, width }];
  });
}
