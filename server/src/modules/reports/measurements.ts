import type { AnnotationKind } from '@ra/shared';
import { code, type Code } from './dicom-dataset.js';

/*
 * What an annotation measures, in the units the frame allows: millimetres when the stored
 * instance gives the frame's Pixel Spacing, pixels otherwise.
 */

/** [x, y] in image pixels of the frame: x the column, y the row. */
export type Point = [number, number];

/** Pixel Spacing: the distance between rows (`row`) and between columns (`column`), in mm. */
export interface PixelSpacing {
  row: number;
  column: number;
}

/** DICOM JSON of a stored instance, as far as spacing is looked up in it. */
type Json = Record<string, { Value?: unknown[] } | undefined>;

function spacingIn(dataset: Json | undefined): PixelSpacing | undefined {
  const values = dataset?.['00280030']?.Value;
  const [row, column] = (values ?? []).map(Number);
  return row !== undefined && column !== undefined && row > 0 && column > 0 ? { row, column } : undefined;
}

function firstItem(dataset: Json | undefined, tag: string, index = 0): Json | undefined {
  const item = dataset?.[tag]?.Value?.[index];
  return typeof item === 'object' && item !== null ? (item as Json) : undefined;
}

/**
 * The Pixel Spacing of a frame: the instance's own (0028,0030), or in an enhanced multi-frame
 * instance the frame's Pixel Measures, per frame or shared (PS3.3 C.7.6.16.2.1).
 */
export function pixelSpacingOf(metadata: unknown, frame: number): PixelSpacing | undefined {
  const dataset = metadata as Json;
  const perFrame = firstItem(dataset, '52009230', frame - 1);
  const shared = firstItem(dataset, '52009229');
  return (
    spacingIn(dataset) ??
    spacingIn(firstItem(perFrame, '00289110')) ??
    spacingIn(firstItem(shared, '00289110'))
  );
}

export const UNITS = {
  millimetre: code('mm', 'UCUM', 'millimeter'),
  squareMillimetre: code('mm2', 'UCUM', 'square millimeter'),
  degree: code('deg', 'UCUM', 'degree'),
  pixels: code('{pixels}', 'UCUM', 'pixels'),
} as const;

export const CONCEPTS = {
  length: code('410668003', 'SCT', 'Length'),
  area: code('42798000', 'SCT', 'Area'),
  // A plain angle between two lines has no SNOMED concept of its own (Cobb angle is a narrower one).
  angle: code('ANGLE', '99RADARCHIVE', 'Angle'),
  finding: code('121071', 'DCM', 'Finding'),
} as const;

/** An annotation as the report shows it: a number (or none, for a mark) and the region drawn. */
export interface Measurement {
  /** Absent for marks that measure nothing (a probe, an arrow). */
  value?: { concept: Code; value: number; unit: Code };
  graphType: 'POINT' | 'POLYLINE' | 'ELLIPSE';
  /** Column, row pairs in image pixels (PS3.3 C.18.6.1.2). */
  graphData: number[];
}

function distance(a: Point, b: Point, spacing: PixelSpacing | undefined): number {
  const dx = (b[0] - a[0]) * (spacing?.column ?? 1);
  const dy = (b[1] - a[1]) * (spacing?.row ?? 1);
  return Math.hypot(dx, dy);
}

/** The angle at `vertex` between the lines to `a` and `b`, in degrees, in physical space when spacing is known. */
function angleAt(a: Point, vertex: Point, b: Point, spacing: PixelSpacing | undefined): number {
  const scale = (p: Point): Point => [
    (p[0] - vertex[0]) * (spacing?.column ?? 1),
    (p[1] - vertex[1]) * (spacing?.row ?? 1),
  ];
  const [u, v] = [scale(a), scale(b)];
  const lengths = Math.hypot(...u) * Math.hypot(...v);
  if (lengths === 0) {
    return 0;
  }
  const cosine = Math.min(1, Math.max(-1, (u[0] * v[0] + u[1] * v[1]) / lengths));
  return (Math.acos(cosine) * 180) / Math.PI;
}

/** A length unit (mm or pixels) and an area unit (mm² or a count of pixels). */
function unitsFor(spacing: PixelSpacing | undefined) {
  return spacing
    ? { length: UNITS.millimetre, area: UNITS.squareMillimetre }
    : { length: UNITS.pixels, area: UNITS.pixels };
}

/** What one annotation measures on a frame of this spacing (undefined: spacing unknown). */
export function measure(
  kind: AnnotationKind,
  points: Point[],
  spacing: PixelSpacing | undefined,
): Measurement {
  const units = unitsFor(spacing);
  const flat = points.flat();
  switch (kind) {
    case 'length': {
      const [a, b] = points as [Point, Point];
      return {
        value: { concept: CONCEPTS.length, value: distance(a, b, spacing), unit: units.length },
        graphType: 'POLYLINE',
        graphData: flat,
      };
    }
    case 'angle': {
      const [a, vertex, b] = points as [Point, Point, Point];
      return {
        value: { concept: CONCEPTS.angle, value: angleAt(a, vertex, b, spacing), unit: UNITS.degree },
        graphType: 'POLYLINE',
        graphData: flat,
      };
    }
    case 'rectangle': {
      const [[x1, y1], [x2, y2]] = points as [Point, Point];
      const area = Math.abs(x2 - x1) * (spacing?.column ?? 1) * Math.abs(y2 - y1) * (spacing?.row ?? 1);
      return {
        value: { concept: CONCEPTS.area, value: area, unit: units.area },
        // A closed polyline: the four corners and the first again.
        graphType: 'POLYLINE',
        graphData: [x1, y1, x2, y1, x2, y2, x1, y2, x1, y1],
      };
    }
    case 'ellipse': {
      // Drawn by opposite corners of its bounding box; SCOORD gives the ends of both axes, major first.
      const [[x1, y1], [x2, y2]] = points as [Point, Point];
      const [cx, cy, rx, ry] = [(x1 + x2) / 2, (y1 + y2) / 2, Math.abs(x2 - x1) / 2, Math.abs(y2 - y1) / 2];
      const horizontal = [cx - rx, cy, cx + rx, cy];
      const vertical = [cx, cy - ry, cx, cy + ry];
      const area = Math.PI * rx * (spacing?.column ?? 1) * ry * (spacing?.row ?? 1);
      return {
        value: { concept: CONCEPTS.area, value: area, unit: units.area },
        graphType: 'ELLIPSE',
        graphData:
          rx * (spacing?.column ?? 1) >= ry * (spacing?.row ?? 1)
            ? [...horizontal, ...vertical]
            : [...vertical, ...horizontal],
      };
    }
    case 'probe':
      return { graphType: 'POINT', graphData: flat };
    case 'arrow':
      return { graphType: 'POLYLINE', graphData: flat };
  }
}
