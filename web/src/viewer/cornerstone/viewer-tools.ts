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
import { utilities } from '@cornerstonejs/core';
import { lengthUnit } from './pixel-spacing';

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
 * The tools of one viewport: the chosen tool on the left button, pan on the middle one, zoom on
 * the right one, stack scroll on the wheel; measurements not chosen stay visible and movable.
 */
export function createToolGroup(toolGroupId: string, viewportId: string, renderingEngineId: string) {
  ToolGroupManager.destroyToolGroup(toolGroupId);
  const group = ToolGroupManager.createToolGroup(toolGroupId)!;
  for (const tool of [...PRIMARY_TOOLS, { name: nameOf(StackScrollTool) }]) {
    group.addTool(tool.name, tool.name === nameOf(LengthTool) ? { getTextLines: lengthTextLines } : {});
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
