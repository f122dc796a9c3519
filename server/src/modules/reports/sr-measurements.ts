import type { AnnotationKind, Point } from '@ra/shared';
import {
  childrenOf,
  conceptOf,
  isConcept,
  itemsOf,
  numberOf,
  personNameOf,
  TAGS,
  textOf,
  valuesOf,
  valueTypeOf,
  type JsonItem,
} from './sr-content.js';

/*
 * The measurements of a TID 1500 Measurement Report (or any SR whose regions are SCOORD content
 * items on images), read from its stored content tree: each SCOORD that names an image becomes
 * the annotation kind that draws its graphic, labelled by the measurement it is the region of.
 * Coordinates are kept as they are: SCOORD's column, row with 0, 0 the top left corner of the top
 * left pixel (PS3.3 C.18.6.1.2) are the viewer's image coordinates too, and sr-builder.ts writes
 * our annotations' points unchanged. What is not understood is left out.
 */

/** How far one report is walked: content items visited, and how deep. */
export const WALK_LIMITS = { items: 50_000, depth: 32 } as const;

/** A measurement as read, before its frame is checked against the study. */
export interface MeasurementRead {
  kind: AnnotationKind;
  points: Point[];
  label: string;
  sopInstanceUid: string;
  frame: number;
}

const CODES = {
  measurementGroup: ['125007', 'DCM'],
  trackingIdentifier: ['112039', 'DCM'],
  personObserverName: ['121008', 'DCM'],
} as const;

/** UCUM units as a reader writes them. */
const UNIT_TEXT: Record<string, string> = {
  mm: 'mm',
  mm2: 'mm²',
  cm: 'cm',
  cm2: 'cm²',
  deg: '°',
  "[hnsf'U]": 'HU',
};

/** "Length 23.4 mm": a NUM item's concept, value and unit. */
function numText(item: JsonItem): string | undefined {
  const measured = itemsOf(item, TAGS.measuredValue)[0];
  const value = measured && numberOf(valuesOf(measured, TAGS.numericValue)[0]);
  if (value === undefined) {
    return undefined;
  }
  const unit = conceptOf(measured, TAGS.units);
  const unitText =
    unit === undefined || unit.value === '1'
      ? ''
      : (UNIT_TEXT[unit.value] ?? (unit.value.startsWith('{') ? unit.meaning : unit.value));
  const shown = Number(value.toPrecision(4)).toString();
  return [conceptOf(item)?.meaning ?? '', shown, unitText].filter(Boolean).join(' ');
}

/** A group's Tracking Identifier, from its own children. */
function trackingOf(group: JsonItem): string | undefined {
  const child = childrenOf(group).find((item) => isConcept(conceptOf(item), ...CODES.trackingIdentifier));
  return child && textOf(child, TAGS.textValue);
}

function pairs(data: number[]): Point[] {
  const points: Point[] = [];
  for (let index = 0; index + 1 < data.length; index += 2) {
    points.push([data[index]!, data[index + 1]!]);
  }
  return points;
}

function box(points: Point[]): Point[] {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return [
    [Math.min(...xs), Math.min(...ys)],
    [Math.max(...xs), Math.max(...ys)],
  ];
}

const EPSILON = 1e-3;
const same = (a: number, b: number) => Math.abs(a - b) <= EPSILON;

/** Whether a closed polyline of five points is a rectangle with sides along the image's axes. */
function isAxisRectangle(points: Point[]): boolean {
  if (points.length !== 5 || !same(points[0]![0], points[4]![0]) || !same(points[0]![1], points[4]![1])) {
    return false;
  }
  return points.slice(0, 4).every((point, index) => {
    const next = points[index + 1]!;
    return same(point[0], next[0]) !== same(point[1], next[1]);
  });
}

/** The ends of two axes along the image's axes (an ellipse our viewer can draw), as its bounding box. */
function axisEllipse(points: Point[]): Point[] | undefined {
  const [a, b, c, d] = points as [Point, Point, Point, Point];
  const isAlong = (p: Point, q: Point) => same(p[0], q[0]) || same(p[1], q[1]);
  return points.length === 4 && isAlong(a, b) && isAlong(c, d) ? box(points) : undefined;
}

/** The annotation kind and points that draw a SCOORD graphic; undefined for graphics we cannot draw. */
export function shapeOf(
  graphicType: string,
  data: number[],
): { kind: AnnotationKind; points: Point[] } | undefined {
  if (data.length % 2 !== 0) {
    return undefined;
  }
  const points = pairs(data);
  switch (graphicType) {
    case 'POINT':
      return points.length === 1 ? { kind: 'probe', points } : undefined;
    case 'POLYLINE':
      if (points.length === 2) {
        return { kind: 'length', points };
      }
      return isAxisRectangle(points) ? { kind: 'rectangle', points: box(points) } : undefined;
    case 'ELLIPSE': {
      const bounds = axisEllipse(points);
      return bounds && { kind: 'ellipse', points: bounds };
    }
    case 'CIRCLE': {
      if (points.length !== 2) {
        return undefined;
      }
      const [[cx, cy], [px, py]] = points as [Point, Point];
      const radius = Math.hypot(px - cx, py - cy);
      return {
        kind: 'ellipse',
        points: [
          [cx - radius, cy - radius],
          [cx + radius, cy + radius],
        ],
      };
    }
    default:
      return undefined;
  }
}

/** The image a SCOORD is drawn on: its first IMAGE child's instance and frame (1 unless named). */
function imageOf(scoord: JsonItem): { sopInstanceUid: string; frame: number } | undefined {
  const image = childrenOf(scoord).find((item) => valueTypeOf(item) === 'IMAGE');
  const reference = image && itemsOf(image, TAGS.referencedSop)[0];
  const sopInstanceUid = textOf(reference, TAGS.referencedSopInstance);
  if (!reference || !sopInstanceUid) {
    return undefined;
  }
  const frames = valuesOf(reference, TAGS.referencedFrame);
  const frame = frames.length === 0 ? 1 : numberOf(frames[0]);
  return frame === undefined ? undefined : { sopInstanceUid, frame };
}

function measurementOf(scoord: JsonItem, label: string): MeasurementRead | undefined {
  const data = valuesOf(scoord, TAGS.graphicData).map(numberOf);
  if (data.some((value) => value === undefined)) {
    return undefined;
  }
  const shape = shapeOf(textOf(scoord, TAGS.graphicType) ?? '', data as number[]);
  const image = shape && imageOf(scoord);
  return shape && image && { ...shape, ...image, label };
}

interface Visit {
  item: JsonItem;
  depth: number;
  /** The NUM this item is the region of, as text. */
  measurement?: string;
  /** The Tracking Identifier of the measurement group it is in. */
  tracking?: string;
}

/**
 * The measurements drawn on images in one report's content tree (its root's ContentSequence), in
 * document order, at most `limit`; within WALK_LIMITS.
 */
export function readMeasurements(content: unknown, limit: number): MeasurementRead[] {
  const found: MeasurementRead[] = [];
  const roots = itemsOf({ [TAGS.content]: content }, TAGS.content);
  const stack: Visit[] = roots.reverse().map((item) => ({ item, depth: 1 }));
  let visited = 0;
  while (stack.length > 0 && found.length < limit && visited < WALK_LIMITS.items) {
    const visit = stack.pop()!;
    visited += 1;
    const { item } = visit;
    const type = valueTypeOf(item);
    if (type === 'SCOORD') {
      const label = visit.measurement ?? visit.tracking ?? conceptOf(item)?.meaning ?? '';
      const measurement = measurementOf(item, label);
      if (measurement) {
        found.push(measurement);
      }
      continue;
    }
    if (visit.depth >= WALK_LIMITS.depth) {
      continue;
    }
    const isGroup = type === 'CONTAINER' && isConcept(conceptOf(item), ...CODES.measurementGroup);
    const next: Omit<Visit, 'item'> = {
      depth: visit.depth + 1,
      measurement: type === 'NUM' ? (numText(item) ?? visit.measurement) : visit.measurement,
      tracking: isGroup ? (trackingOf(item) ?? visit.tracking) : visit.tracking,
    };
    const children = childrenOf(item);
    for (let index = children.length - 1; index >= 0; index -= 1) {
      stack.push({ ...next, item: children[index]! });
    }
  }
  return found;
}

/** The report's observer: its Person Observer Name at the top of its tree, else its Author Observer. */
export function observerOf(content: unknown, authorObserver: unknown): string {
  const roots = itemsOf({ [TAGS.content]: content }, TAGS.content);
  const observer = roots.find((item) => isConcept(conceptOf(item), ...CODES.personObserverName));
  const named = observer && personNameOf(valuesOf(observer, TAGS.personName)[0]);
  if (named) {
    return named;
  }
  const author = itemsOf({ author: authorObserver }, 'author')[0];
  return author ? personNameOf(valuesOf(author, TAGS.personName)[0]) : '';
}
