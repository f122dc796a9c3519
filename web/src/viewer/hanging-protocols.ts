/**
 * Hanging protocols: how a study is laid out when it opens in the viewer, as data. Each protocol
 * says which studies it takes (modalities of their image series, how many series) and how it
 * hangs them (a layout, and which series goes in which cell); the first that takes the study wins.
 * Protocols `withPrior` hang the study beside its prior instead, when the reader asks to compare.
 * Pure: the study page decides with it before the viewer's code has arrived.
 */

export type LayoutId = '1x1' | '1x2' | '2x2';

export const CELLS_OF_LAYOUT: Record<LayoutId, number> = { '1x1': 1, '1x2': 2, '2x2': 4 };

/** What a series says of itself at the series level (QIDO-RS), enough to hang it. */
export interface HangableSeries {
  uid: string;
  modality: string;
  description: string;
  number: number | null;
  /** When known (a series-level QIDO-RS rarely gives it). */
  sopClassUid?: string;
}

export interface Hanging {
  protocol: string;
  layout: LayoutId;
  /** The series of each cell, by cell (row by row); null leaves a cell empty. */
  cells: (string | null)[];
}

/** Series without pictures to view: reports, key object selections, presentation states, documents. */
const NON_IMAGE_MODALITIES = new Set(['SR', 'KO', 'PR', 'DOC', 'RTSTRUCT', 'RTPLAN']);
/** The same by SOP class, for a series whose modality does not say it. */
const NON_IMAGE_SOP_CLASS_PREFIXES = [
  '1.2.840.10008.5.1.4.1.1.88.', // structured reports and key object selections
  '1.2.840.10008.5.1.4.1.1.11.', // presentation states
  '1.2.840.10008.5.1.4.1.1.104.', // encapsulated documents
];

export function isImageSeries(series: Pick<HangableSeries, 'modality' | 'sopClassUid'>): boolean {
  if (NON_IMAGE_MODALITIES.has(series.modality)) {
    return false;
  }
  const sopClass = series.sopClassUid;
  return !sopClass || !NON_IMAGE_SOP_CLASS_PREFIXES.some((prefix) => sopClass.startsWith(prefix));
}

/** A mammogram's view, as its series description names it (R CC, LMLO, Left MLO…); undefined if it does not. */
export function mammographyView(description: string): 'RCC' | 'LCC' | 'RMLO' | 'LMLO' | undefined {
  const words = description.toUpperCase().replace(/[^A-Z]+/g, ' ');
  const side = /\b(R|RIGHT|RCC|RMLO)\b/.test(words) ? 'R' : /\b(L|LEFT|LCC|LMLO)\b/.test(words) ? 'L' : '';
  const view = /\b(MLO|RMLO|LMLO)\b/.test(words) ? 'MLO' : /\b(CC|RCC|LCC)\b/.test(words) ? 'CC' : '';
  return side && view ? `${side}${view}` : undefined;
}

/** The conventional screening hanging: craniocaudal views above, oblique below, right breast on the left. */
const MAMMOGRAPHY_CELLS = ['RCC', 'LCC', 'RMLO', 'LMLO'] as const;

type Arrangement = 'in-order' | 'mammography-views' | 'beside-prior';

interface Protocol {
  id: string;
  /**
   * The modalities all the study's image series are of; any when absent. With a prior: those of
   * the current series compared (and of the prior's series matched to it).
   */
  modalities?: readonly string[];
  /** Hangs the current study (left) beside its prior (right), only when comparing with it. */
  withPrior?: boolean;
  /** How many image series the study has, at least and at most. */
  minSeries: number;
  maxSeries: number;
  layout: LayoutId;
  arrangement: Arrangement;
}

export const HANGING_PROTOCOLS: readonly Protocol[] = [
  {
    id: 'current-beside-prior',
    modalities: ['CT', 'MR', 'CR', 'DX', 'MG'],
    withPrior: true,
    minSeries: 1,
    maxSeries: Infinity,
    layout: '1x2',
    arrangement: 'beside-prior',
  },
  {
    id: 'mammography-four-views',
    modalities: ['MG'],
    minSeries: 2,
    maxSeries: Infinity,
    layout: '2x2',
    arrangement: 'mammography-views',
  },
  {
    id: 'cross-sectional-pair',
    modalities: ['CT', 'MR', 'PT', 'NM'],
    minSeries: 2,
    maxSeries: Infinity,
    layout: '1x2',
    arrangement: 'in-order',
  },
  { id: 'single-series', minSeries: 0, maxSeries: Infinity, layout: '1x1', arrangement: 'in-order' },
];

function arrange(series: readonly HangableSeries[], layout: LayoutId, arrangement: Arrangement) {
  const count = CELLS_OF_LAYOUT[layout];
  if (arrangement !== 'mammography-views') {
    return Array.from({ length: count }, (_, cell) => series[cell]?.uid ?? null);
  }
  const cells: (string | null)[] = MAMMOGRAPHY_CELLS.map(
    (view) => series.find((item) => mammographyView(item.description) === view)?.uid ?? null,
  );
  // Views the descriptions do not name fill the cells left, in the study's order.
  const rest = series.filter((item) => !cells.includes(item.uid));
  return cells.map((uid) => uid ?? rest.shift()?.uid ?? null);
}

/** How a study's series hang when it opens (in the study's order, non-image series left out). */
export function hangStudy(series: readonly HangableSeries[]): Hanging {
  const images = series.filter(isImageSeries);
  const protocol = HANGING_PROTOCOLS.find(
    (candidate) =>
      !candidate.withPrior &&
      images.length >= candidate.minSeries &&
      images.length <= candidate.maxSeries &&
      (!candidate.modalities || images.every((item) => candidate.modalities!.includes(item.modality))),
  )!;
  return {
    protocol: protocol.id,
    layout: protocol.layout,
    cells: arrange(images, protocol.layout, protocol.arrangement),
  };
}

/** The modalities a study may be compared with its prior in: a prior must share one of them. */
export const MODALITIES_WITH_PRIOR: readonly string[] = [
  ...new Set(
    HANGING_PROTOCOLS.flatMap((protocol) => (protocol.withPrior ? (protocol.modalities ?? []) : [])),
  ),
];

/** Which study a viewport of a comparison shows. */
export type StudyRole = 'current' | 'prior';

export interface PriorHanging {
  protocol: string;
  layout: LayoutId;
  /** The study and series of each cell, by cell. */
  cells: { study: StudyRole; series: string }[];
}

const PLANES: [string, RegExp][] = [
  ['axial', /\b(AX|AXI|AXIAL|TRA|TRANS|TRANSVERSE)\b/],
  ['sagittal', /\b(SAG|SAGITTAL)\b/],
  ['coronal', /\b(COR|CORONAL)\b/],
  ['frontal', /\b(PA|AP|FRONTAL)\b/],
  ['lateral', /\b(LAT|LATERAL)\b/],
];

/** The plane or view a series description names (axial, lateral, a mammogram's R CC…); undefined if none. */
export function viewOfDescription(description: string): string | undefined {
  const words = description.toUpperCase().replace(/[^A-Z]+/g, ' ');
  return mammographyView(description) ?? PLANES.find(([, pattern]) => pattern.test(words))?.[0];
}

const normalized = (description: string) =>
  description
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

/**
 * The prior's series that best matches a current one: of the same modality, then the same
 * description, else the same plane or view, else the same series number; the first in the
 * prior's order of those equally good. Undefined when the prior has none of that modality.
 */
export function matchPriorSeries(
  current: HangableSeries,
  prior: readonly HangableSeries[],
): HangableSeries | undefined {
  const view = viewOfDescription(current.description);
  const score = (candidate: HangableSeries) =>
    (normalized(current.description) !== '' &&
    normalized(candidate.description) === normalized(current.description)
      ? 4
      : 0) +
    (view !== undefined && viewOfDescription(candidate.description) === view ? 2 : 0) +
    (current.number !== null && candidate.number === current.number ? 1 : 0);
  let best: HangableSeries | undefined;
  for (const candidate of prior) {
    if (candidate.modality === current.modality && isImageSeries(candidate)) {
      if (!best || score(candidate) > score(best)) {
        best = candidate;
      }
    }
  }
  return best;
}

/**
 * The current study beside its prior, as the first protocol `withPrior` hangs them: on the left
 * the current series `preferred` (the one the reader is on) if the prior has a match for it, else
 * the first of the study's own hanging that has one; on the right the prior's match. Null when no
 * protocol takes the pair or no series of the prior matches.
 */
export function hangWithPrior(
  current: readonly HangableSeries[],
  prior: readonly HangableSeries[],
  preferred?: string | null,
): PriorHanging | null {
  const images = current.filter(isImageSeries);
  const hung = hangStudy(current).cells;
  const order = [
    ...images.filter((item) => item.uid === preferred),
    ...hung.flatMap((uid) => images.filter((item) => item.uid === uid)),
    ...images,
  ];
  for (const protocol of HANGING_PROTOCOLS) {
    if (!protocol.withPrior || images.length < protocol.minSeries || images.length > protocol.maxSeries) {
      continue;
    }
    for (const left of order) {
      const match =
        protocol.modalities?.includes(left.modality) === false ? undefined : matchPriorSeries(left, prior);
      if (match) {
        return {
          protocol: protocol.id,
          layout: protocol.layout,
          cells: [
            { study: 'current', series: left.uid },
            { study: 'prior', series: match.uid },
          ],
        };
      }
    }
  }
  return null;
}

/**
 * Whether a layout's viewports start linked (scroll, window, zoom and pan): when they show at
 * least two series and all of them share one frame of reference (the same patient space).
 * Unknown frames of reference (null) link nothing.
 */
export function shouldLinkByDefault(framesOfReference: readonly (string | null)[]): boolean {
  return (
    framesOfReference.length >= 2 &&
    framesOfReference.every((uid) => uid !== null && uid !== '' && uid === framesOfReference[0])
  );
}

/** What linked viewports keep in step: the image shown (by position), the window, zoom and pan. */
export type LinkKind = 'slice' | 'window' | 'zoomPan';

/**
 * What series of different frames of reference (a study and its prior) may keep in step: not the
 * image shown, which a position in one patient space does not name in the other.
 */
export const POSITION_FREE_LINKS: readonly LinkKind[] = ['window', 'zoomPan'];
