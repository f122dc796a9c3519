import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { Enums, utilities, type Types } from '@cornerstonejs/core';
import { CrosshairsTool, ToolGroupManager } from '@cornerstonejs/tools';
import type { DicomJsonDataset } from '@ra/shared';
import type { StackSlice } from '../cornerstone/series-stack';
import { removeSelectedAnnotations } from '../cornerstone/use-annotation-sync';
import {
  CT_WINDOW_PRESETS,
  fileWindows,
  formatWindow,
  rangeOfWindow,
  windowOfRange,
  type Window,
} from '../cornerstone/window-presets';
import { ShortcutsDialog, type Shortcut } from '../components/ShortcutsDialog';
import { mprEligibility } from './mpr-eligibility';
import { clampSlab, MAX_SLAB_MM, planeFacts, type PlaneFacts } from './mpr-geometry';
import {
  chooseMprTool,
  MPR_PLANES,
  MPR_TOOLS,
  useMprVolume,
  type MprToolId,
  type PlaneId,
} from './use-mpr-volume';
import '../components/diagnostic-viewer.css';
import './mpr.css';

export interface MprViewProps {
  studyUid: string;
  seriesUid: string;
  modality: string;
  /** The series' images as the stack viewer registered them (`registerSeriesStack`). */
  slices: readonly StackSlice[];
  /** The series' metadata (WADO-RS), as the stack viewer read it. */
  datasets: readonly DicomJsonDataset[];
  /** What the viewer calls the series, for the view's label. */
  title?: string;
  onClose: () => void;
}

type SlabMode = 'mip' | 'average';

const SHORTCUTS: readonly Shortcut[] = [
  ['↑ / ↓, wheel', 'Previous / next slice of the focused plane'],
  ['Page Up / Page Down', 'Ten slices back / forward'],
  ['Tab', 'The next plane'],
  ['Left drag', 'The chosen tool (crosshairs: click to move the planes, drag a line to move or turn it)'],
  ['Middle drag', 'Pan'],
  ['Right drag', 'Zoom'],
  ['0', 'Reset the planes, zoom and slab'],
  ['Delete', 'Delete the selected measurement'],
  ['?', 'This list'],
  ...MPR_TOOLS.map((tool) => [tool.key, `${tool.label} tool`] as const),
  ...CT_WINDOW_PRESETS.map((preset) => [preset.key ?? '', `${preset.name} window (CT)`] as const),
];

interface PaneState {
  /** 0-based slice of the plane through the volume, of `slices`. */
  slice: number;
  slices: number;
  window: Window | null;
  facts: PlaneFacts | null;
}

/** What one plane shows, following its camera and window. */
function usePaneState(viewport: Types.IVolumeViewport | undefined, volumeId: string): PaneState | null {
  const [state, setState] = useState<PaneState | null>(null);
  useEffect(() => {
    if (!viewport) {
      setState(null);
      return undefined;
    }
    const { element } = viewport;
    const update = () => {
      const imageData = viewport.getImageData(volumeId);
      if (!imageData) {
        return;
      }
      const camera = viewport.getCamera();
      const { numScrollSteps, currentStepIndex } = utilities.getVolumeViewportScrollInfo(viewport, volumeId);
      const range = viewport.getProperties(volumeId)?.voiRange;
      const next: PaneState = {
        slice: currentStepIndex,
        slices: numScrollSteps + 1,
        window: range ? windowOfRange(range.lower, range.upper) : null,
        facts:
          camera.viewUp && camera.viewPlaneNormal
            ? planeFacts(
                {
                  dimensions: imageData.dimensions,
                  spacing: imageData.spacing,
                  direction: Array.from(imageData.direction),
                },
                camera.viewUp,
                camera.viewPlaneNormal,
              )
            : null,
      };
      setState((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
    };
    update();
    element.addEventListener(Enums.Events.CAMERA_MODIFIED, update);
    element.addEventListener(Enums.Events.VOI_MODIFIED, update);
    element.addEventListener(Enums.Events.IMAGE_RENDERED, update);
    return () => {
      element.removeEventListener(Enums.Events.CAMERA_MODIFIED, update);
      element.removeEventListener(Enums.Events.VOI_MODIFIED, update);
      element.removeEventListener(Enums.Events.IMAGE_RENDERED, update);
    };
  }, [viewport, volumeId]);
  return state;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** One plane: its viewport, its corners (name, slice, window, size, the patient's sides), its keys. */
function MprPane({
  plane,
  viewport,
  volumeId,
  onElement,
  onKeyDown,
}: {
  plane: (typeof MPR_PLANES)[number];
  viewport: Types.IVolumeViewport | undefined;
  volumeId: string;
  onElement: (element: HTMLDivElement | null) => void;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>, viewport: Types.IVolumeViewport | undefined) => void;
}) {
  const state = usePaneState(viewport, volumeId);
  const facts = state?.facts;
  return (
    <div
      className="mpr-pane"
      tabIndex={0}
      role="application"
      aria-roledescription="image viewer"
      aria-label={`${plane.label} plane${
        state ? `, slice ${state.slice + 1} of ${state.slices}` : ''
      }. Arrow keys move through the slices; press ? for all shortcuts.`}
      onKeyDown={(event) => onKeyDown(event, viewport)}
      onContextMenu={(event) => event.preventDefault()}
      data-testid={`mpr-pane-${plane.id}`}
      data-slice={state ? state.slice + 1 : undefined}
      data-slices={state?.slices}
      data-width-mm={facts ? round1(facts.widthMm) : undefined}
      data-height-mm={facts ? round1(facts.heightMm) : undefined}
      data-top={facts?.top}
      data-right={facts?.right}
      style={{ borderColor: plane.color }}
    >
      <div ref={onElement} className="mpr-viewport" data-testid={`mpr-viewport-${plane.id}`} />
      <div className="mpr-overlay" aria-hidden="true">
        <div className="mpr-corner top-left">
          <div style={{ color: plane.color }}>{plane.label}</div>
          {state && (
            <div>
              Slice {state.slice + 1} / {state.slices}
            </div>
          )}
        </div>
        <div className="mpr-corner bottom-left">
          {facts && (
            <div>
              {round1(facts.widthMm)} × {round1(facts.heightMm)} mm
            </div>
          )}
        </div>
        <div className="mpr-corner bottom-right">
          {state?.window && <div>{formatWindow(state.window)}</div>}
        </div>
        {facts && (
          <>
            <div className="mpr-side top">{facts.top}</div>
            <div className="mpr-side right">{facts.right}</div>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * Multiplanar reconstruction of a CT or MR series: its images as one volume, shown in axial,
 * sagittal and coronal planes side by side. Crosshairs link the planes (a click in one moves the
 * other two there), the window is shared, a slab thicker than one plane shows its maximum or its
 * mean, and lengths are measured in mm in any plane. Measurements made here are not saved.
 */
export default function MprView({ seriesUid, modality, slices, datasets, title, onClose }: MprViewProps) {
  const eligibility = useMemo(() => mprEligibility({ modality, datasets }), [modality, datasets]);
  const imageIds = useMemo(
    () => (eligibility.ok ? slices.map((slice) => slice.imageId) : []),
    [eligibility, slices],
  );
  const [elements, setElements] = useState<Record<PlaneId, HTMLDivElement | null>>({
    axial: null,
    sagittal: null,
    coronal: null,
  });
  const elementSetters = useMemo(
    () =>
      Object.fromEntries(
        MPR_PLANES.map((plane) => [
          plane.id,
          (element: HTMLDivElement | null) =>
            setElements((current) =>
              current[plane.id] === element ? current : { ...current, [plane.id]: element },
            ),
        ]),
      ) as Record<PlaneId, (element: HTMLDivElement | null) => void>,
    [],
  );
  const [attempt, setAttempt] = useState(0);
  const { load, viewports, volumeId, toolGroupId } = useMprVolume(elements, seriesUid, imageIds, attempt);
  const [tool, setTool] = useState<MprToolId>('crosshairs');
  const [slabMm, setSlabMm] = useState(0);
  const [slabMode, setSlabMode] = useState<SlabMode>('mip');
  const [isHelpShown, setIsHelpShown] = useState(false);

  const handleTool = useCallback(
    (id: MprToolId) => {
      setTool(id);
      chooseMprTool(toolGroupId, id);
    },
    [toolGroupId],
  );
  // A volume built again starts with the crosshairs.
  useEffect(() => {
    if (viewports) {
      setTool('crosshairs');
    }
  }, [viewports]);

  // The slab: one plane when 0, else so many mm around it, by maximum or mean; in all three planes.
  const applySlab = useCallback(() => {
    if (!viewports) {
      return;
    }
    const blend =
      slabMm === 0
        ? Enums.BlendModes.COMPOSITE
        : slabMode === 'mip'
          ? Enums.BlendModes.MAXIMUM_INTENSITY_BLEND
          : Enums.BlendModes.AVERAGE_INTENSITY_BLEND;
    for (const viewport of Object.values(viewports)) {
      viewport.setBlendMode(blend);
      viewport.setSlabThickness(slabMm);
      viewport.render();
    }
  }, [viewports, slabMm, slabMode]);
  useEffect(applySlab, [applySlab]);

  const applyWindow = useCallback(
    (window: Window) => {
      for (const viewport of Object.values(viewports ?? {})) {
        viewport.setProperties({ voiRange: rangeOfWindow(window) });
        viewport.render();
      }
    },
    [viewports],
  );
  const reset = useCallback(() => {
    const crosshairs = ToolGroupManager.getToolGroup(toolGroupId)?.getToolInstance(
      CrosshairsTool.toolName as string,
    ) as { resetCrosshairs?: () => void } | undefined;
    crosshairs?.resetCrosshairs?.();
    applySlab();
  }, [toolGroupId, applySlab]);

  const presets = useMemo(
    () => [
      ...fileWindows(datasets[Math.floor(datasets.length / 2)]),
      ...(modality === 'CT' ? CT_WINDOW_PRESETS : []),
    ],
    [datasets, modality],
  );

  // Keyboard users start in the first plane once the volume is there.
  const axialElement = elements.axial;
  useEffect(() => {
    if (viewports) {
      axialElement?.parentElement?.focus({ preventScroll: true });
    }
  }, [viewports, axialElement]);

  const handleKeyDown = (
    event: KeyboardEvent<HTMLDivElement>,
    viewport: Types.IVolumeViewport | undefined,
  ) => {
    const steps: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10 };
    const key = event.key;
    const chosen = MPR_TOOLS.find((candidate) => candidate.key === key);
    const preset =
      modality === 'CT' ? CT_WINDOW_PRESETS.find((candidate) => candidate.key === key) : undefined;
    if (key in steps) {
      if (viewport) {
        utilities.scroll(viewport as unknown as Types.IViewport, { delta: steps[key]!, volumeId });
      }
    } else if (key === '0') {
      reset();
    } else if (key === 'Delete' || key === 'Backspace') {
      if (removeSelectedAnnotations() > 0) {
        for (const each of Object.values(viewports ?? {})) {
          each.render();
        }
      }
    } else if (key === '?') {
      setIsHelpShown(true);
    } else if (chosen) {
      handleTool(chosen.id);
    } else if (preset) {
      applyWindow(preset);
    } else {
      return;
    }
    event.preventDefault();
  };

  const label = `MPR: ${title ?? 'series'}`;
  if (!eligibility.ok) {
    return (
      <section className="mpr-view" aria-label={label}>
        <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2">
          <span>{eligibility.reason}</span>
          <Button variant="outline-secondary" size="sm" onClick={onClose}>
            Back to the images
          </Button>
        </Alert>
      </section>
    );
  }
  const isBuilding = load.status === 'building';
  return (
    <section
      className="mpr-view"
      aria-label={label}
      data-testid="mpr-view"
      data-status={load.status}
      data-loaded={load.loaded}
    >
      <div className="viewer-toolbar mpr-toolbar" role="toolbar" aria-label="MPR tools">
        <ButtonGroup size="sm" aria-label="Left button tool">
          {MPR_TOOLS.map((candidate) => (
            <Button
              key={candidate.id}
              variant={tool === candidate.id ? 'primary' : 'outline-light'}
              aria-pressed={tool === candidate.id}
              title={`${candidate.label} (${candidate.key})`}
              onClick={() => handleTool(candidate.id)}
              disabled={!viewports}
            >
              {candidate.label}
            </Button>
          ))}
        </ButtonGroup>
        {presets.length > 0 && (
          <Dropdown>
            <Dropdown.Toggle size="sm" variant="outline-light" id="mpr-presets" disabled={!viewports}>
              Window preset
            </Dropdown.Toggle>
            <Dropdown.Menu>
              {presets.map((preset) => (
                <Dropdown.Item key={preset.name} onClick={() => applyWindow(preset)}>
                  {preset.name} ({formatWindow(preset)})
                </Dropdown.Item>
              ))}
            </Dropdown.Menu>
          </Dropdown>
        )}
        <div className="mpr-slab d-flex align-items-center gap-1">
          <Form.Label htmlFor="mpr-slab" className="mb-0 small text-nowrap">
            Slab (mm)
          </Form.Label>
          <Form.Control
            id="mpr-slab"
            size="sm"
            type="number"
            min={0}
            max={MAX_SLAB_MM}
            step={1}
            value={slabMm}
            disabled={!viewports}
            onChange={(event) => setSlabMm(clampSlab(Number(event.target.value)))}
            style={{ width: '4.5rem' }}
            aria-describedby="mpr-slab-help"
          />
          <Form.Select
            size="sm"
            aria-label="Slab projection"
            value={slabMode}
            disabled={!viewports || slabMm === 0}
            onChange={(event) => setSlabMode(event.target.value as SlabMode)}
            style={{ width: 'auto' }}
          >
            <option value="mip">Maximum (MIP)</option>
            <option value="average">Average</option>
          </Form.Select>
          <span id="mpr-slab-help" className="visually-hidden">
            0 shows a single thin plane; up to {MAX_SLAB_MM} mm.
          </span>
        </div>
        <Button size="sm" variant="outline-light" onClick={reset} disabled={!viewports} title="Reset (0)">
          Reset
        </Button>
        <Button
          size="sm"
          variant="outline-light"
          onClick={() => setIsHelpShown(true)}
          aria-label="Keyboard shortcuts"
        >
          ?
        </Button>
        <Button size="sm" variant="secondary" onClick={onClose} className="ms-auto">
          Close MPR
        </Button>
      </div>
      {load.status === 'failed' ? (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2" data-testid="mpr-error">
          <span>{load.error}</span>
          <Button variant="outline-danger" size="sm" onClick={() => setAttempt((value) => value + 1)}>
            Retry
          </Button>
          <Button variant="outline-secondary" size="sm" onClick={onClose}>
            Back to the images
          </Button>
        </Alert>
      ) : (
        isBuilding && (
          <div className="mb-2" role="status" data-testid="mpr-progress">
            <ProgressBar>
              <ProgressBar
                isChild
                now={load.loaded}
                max={load.total}
                label={`${load.loaded} / ${load.total}`}
                visuallyHidden
                aria-label="Volume images loaded"
              />
            </ProgressBar>
            <small className="text-body-secondary">
              Loading volume {load.loaded} of {load.total}
            </small>
          </div>
        )
      )}
      <div className={`mpr-grid${load.status === 'failed' ? ' is-failed' : ''}`}>
        {MPR_PLANES.map((plane) => (
          <MprPane
            key={plane.id}
            plane={plane}
            viewport={viewports?.[plane.id]}
            volumeId={volumeId}
            onElement={elementSetters[plane.id]}
            onKeyDown={handleKeyDown}
          />
        ))}
      </div>
      <p className="small text-body-secondary mt-2 mb-0">
        Crosshairs link the planes; lengths read millimetres in any plane. Measurements made in MPR are not
        saved.
      </p>
      <ShortcutsDialog show={isHelpShown} onClose={() => setIsHelpShown(false)} shortcuts={SHORTCUTS} />
    </section>
  );
}
