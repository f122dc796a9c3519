import {
  AngleTool,
  ArrowAnnotateTool,
  EllipticalROITool,
  Enums as ToolEnums,
  LengthTool,
  PanTool,
  ProbeTool,
  RectangleROITool,
  StackScrollTool,
  ToolGroupManager,
  WindowLevelTool,
  ZoomTool,
} from '@cornerstonejs/tools';
import { cache, metaData, utilities, type Types } from '@cornerstonejs/core';
import { lengthUnit } from './pixel-spacing';
import { probeText, probeUnit, probeValue } from './probe-value';

const { MouseBindings } = ToolEnums;

/** A tool's registered name (some tool classes leave its type open). */
const nameOf = (tool: { toolName: string }): string => tool.toolName;
const PAN = nameOf(PanTool);
const ZOOM = nameOf(ZoomTool);
const STACK_SCROLL = nameOf(StackScrollTool);

/** What the left button does, as the toolbar offers it. */
export const PRIMARY_TOOLS = [
  { id: 'window', name: nameOf(WindowLevelTool), label: 'Window', key: 'w' },
  { id: 'pan', name: nameOf(PanTool), label: 'Pan', key: 'p' },
  { id: 'zoom', name: nameOf(ZoomTool), label: 'Zoom', key: 'z' },
  { id: 'length', name: nameOf(LengthTool), label: 'Length', key: 'l' },
  { id: 'angle', name: nameOf(AngleTool), label: 'Angle', key: 'a' },
  { id: 'ellipse', name: nameOf(EllipticalROITool), label: 'Ellipse', key: 'e' },
  { id: 'rectangle', name: nameOf(RectangleROITool), label: 'Rectangle', key: 'r' },
  { id: 'probe', name: nameOf(ProbeTool), label: 'Probe', key: 'b' },
  { id: 'arrow', name: nameOf(ArrowAnnotateTool), label: 'Arrow', key: 'o' },
] as const;

export type PrimaryToolId = (typeof PRIMARY_TOOLS)[number]['id'];
export interface PrimaryTool {
  id: PrimaryToolId;
  name: string;
  label: string;
  key: string;
}

/** A length's text: Cornerstone's, with the unit saying when the millimetres are at the detector. */
export function lengthTextLines(
  data: { cachedStats?: Record<string, { length?: number; unit?: string }> },
  targetId: string,
): string[] | undefined {
  const stats = data.cachedStats?.[targetId];
  if (!stats || typeof stats.length !== 'number' || Number.isNaN(stats.length)) {
    return undefined;
  }
  const imageId = targetId.startsWith('imageId:') ? targetId.slice('imageId:'.length) : undefined;
  return [`${utilities.roundNumber(stats.length)} ${lengthUnit(stats.unit ?? '', imageId)}`];
}

/**
 * A probe's text: the value of the image under it, read from the decoded image (Cornerstone's
 * own reading misses on a stack, see probe-value.ts), in HU for CT.
 */
export function probeTextLines(
  data: { handles?: { points?: Types.Point3[] } },
  targetId: string,
): string[] | undefined {
  const point = data.handles?.points?.[0];
  const imageId = targetId.startsWith('imageId:') ? targetId.slice('imageId:'.length) : undefined;
  const image = imageId ? cache.getImage(imageId) : undefined;
  if (!point || !imageId || !image) {
    return undefined;
  }
  const modalityLut = metaData.get('modalityLutModule', imageId) as
    { rescaleSlope?: number; rescaleIntercept?: number; rescaleType?: string } | undefined;
  const series = metaData.get('generalSeriesModule', imageId) as { modality?: string } | undefined;
  const value = probeValue(utilities.worldToImageCoords(imageId, point) as [number, number], {
    columns: image.columns,
    rows: image.rows,
    pixels: image.color ? null : image.getPixelData(),
    isPreScaled: Boolean(image.preScale?.scaled),
    slope: modalityLut?.rescaleSlope ?? image.slope ?? 1,
    intercept: modalityLut?.rescaleIntercept ?? image.intercept ?? 0,
  });
  return value === undefined
    ? undefined
    : [probeText(value, probeUnit(series?.modality ?? '', modalityLut?.rescaleType))];
}

/** Text functions of the tools whose own text is replaced. */
const TOOL_CONFIGURATIONS: Record<string, object> = {
  [nameOf(LengthTool)]: { getTextLines: lengthTextLines },
  [nameOf(ProbeTool)]: { getTextLines: probeTextLines },
};

/**
 * The tools of one viewport: the chosen tool on the left button, pan on the middle one, zoom on
 * the right one, stack scroll on the wheel; measurements not chosen stay visible and movable.
 */
export function createToolGroup(toolGroupId: string, viewportId: string, renderingEngineId: string) {
  ToolGroupManager.destroyToolGroup(toolGroupId);
  const group = ToolGroupManager.createToolGroup(toolGroupId)!;
  for (const tool of [...PRIMARY_TOOLS, { name: nameOf(StackScrollTool) }]) {
    group.addTool(tool.name, TOOL_CONFIGURATIONS[tool.name] ?? {});
  }
  group.addViewport(viewportId, renderingEngineId);
  group.setToolActive(STACK_SCROLL, { bindings: [{ mouseButton: MouseBindings.Wheel }] });
  chooseTool(toolGroupId, 'window');
  return group;
}

/** Puts `id` on the left button; pan and zoom keep the middle and right buttons. */
export function chooseTool(toolGroupId: string, id: PrimaryToolId) {
  const group = ToolGroupManager.getToolGroup(toolGroupId);
  if (!group) {
    return;
  }
  const bindings = (button: number) => ({ bindings: [{ mouseButton: button }] });
  // Passive: measurements already drawn stay visible and can still be moved.
  for (const tool of PRIMARY_TOOLS) {
    group.setToolPassive(tool.name);
  }
  const chosen = PRIMARY_TOOLS.find((tool) => tool.id === id)!;
  group.setToolActive(chosen.name, bindings(MouseBindings.Primary));
  if (chosen.name !== PAN) {
    group.setToolActive(PAN, bindings(MouseBindings.Auxiliary));
  }
  if (chosen.name !== ZOOM) {
    group.setToolActive(ZOOM, bindings(MouseBindings.Secondary));
  }
}
