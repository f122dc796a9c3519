import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
  type MutableRefObject,
} from 'react';
import { createPortal } from 'react-dom';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DICOM_TAGS, firstValue, type KeyImage } from '@ra/shared';
import { utilities as toolUtilities } from '@cornerstonejs/tools';
import { useAuth } from '../../app/auth/auth-context';
import { PageSpinner } from '../../components/PageSpinner';
import { seriesMetadataQuery } from '../../lib/dicomweb';
import { registerSeriesStack, type StackSlice } from '../cornerstone/series-stack';
import { failureMessage } from '../cornerstone/image-failure';
import { linkViewport } from '../cornerstone/linked-viewports';
import type { LinkKind } from '../hanging-protocols';
import { setUpCornerstone } from '../cornerstone/setup';
import { useAnnotationSync } from '../cornerstone/use-annotation-sync';
import { useReportedDrawing } from '../cornerstone/use-reported-drawing';
import { useStackViewport } from '../cornerstone/use-stack-viewport';
import { useViewCommands } from '../cornerstone/use-view-commands';
import { chooseTool, PRIMARY_TOOLS, type PrimaryToolId } from '../cornerstone/viewer-tools';
import { CT_WINDOW_PRESETS, fileWindows, rangeOfWindow, type Window } from '../cornerstone/window-presets';
import { isTextEntry } from '../keyboard';
import { MprButton, MprView } from '../mpr';
import type { FrameToShow } from '../reported-measurements';
import { AnnotationStatus } from './AnnotationStatus';
import { StackProgress } from './StackProgress';
import { ShortcutsDialog } from './ShortcutsDialog';
import { ViewerToolbar } from './ViewerToolbar';
import { ViewportOverlay, type OverlayFacts } from './ViewportOverlay';
import './diagnostic-viewer.css';

/** Starts the renderer and the decoders ahead of the first series opened. */
export function prepareViewer(): Promise<void> {
  return setUpCornerstone();
}

/** The key images of the note being written, marked and unmarked from the viewer. */
export interface KeyImageMarking {
  marked: readonly KeyImage[];
  canMarkMore: boolean;
  onToggle: (keyImage: KeyImage) => void;
}

export interface DiagnosticViewerProps {
  /** The archive item (the study) the annotations belong to. */
  itemUid: string;
  studyUid: string;
  seriesUid: string;
  modality: string;
  facts: OverlayFacts;
  /** A key image of this series to open on, with its window. */
  initialView?: KeyImage;
  keyImages?: KeyImageMarking;
  /** One viewport of a layout: only the active one shows its toolbar, in the layout's slot. */
  layoutCell?: LayoutCell;
  /** A frame of this series to show (a report's measurement); each new request shows it again. */
  frameToShow?: FrameRequest;
}

/** A frame the viewer is asked to show; a new object is a new request. */
export interface FrameRequest {
  frame: FrameToShow;
}

/** What a viewport of a layout shares with the others. */
export interface LayoutCell {
  isActive: boolean;
  toolbarSlot: HTMLElement | null;
  /** What full screen shows: the whole layout. */
  container: HTMLElement | null;
  onActivate: () => void;
  /** The rendering engine all the layout's viewports are enabled on. */
  engineId: string;
  /** The group of linked viewports (scroll, window, zoom and pan) this one is in; none when unlinked. */
  linkGroup?: string;
  /** What the group keeps in step, when not all of it (a stable array). */
  linkKinds?: readonly LinkKind[];
  /**
   * The layout's keyboard: its root hands every key pressed inside it (but in a text field) to
   * the handler the active viewport puts here, which says whether it took the key.
   */
  keys: MutableRefObject<((event: ViewerKeyEvent) => boolean) | null>;
}

/** What the viewer reads of a key pressed. */
export type ViewerKeyEvent = Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey'>;

function isFrameOf(keyImage: Pick<KeyImage, 'sop_instance_uid' | 'frame'>, slice: StackSlice): boolean {
  return keyImage.sop_instance_uid === slice.sopInstanceUid && keyImage.frame === slice.frame;
}

/**
 * The diagnostic viewer of one series: Cornerstone3D reading our /dicomweb with the user's token.
 * Window/level, zoom, pan, rotation and flips, stack scrolling by wheel, keys and slider, cine,
 * and the measurement tools; the corners say what is shown.
 */
export default function DiagnosticViewer({
  itemUid,
  studyUid,
  seriesUid,
  modality,
  facts,
  initialView,
  keyImages,
  layoutCell,
  frameToShow,
}: DiagnosticViewerProps) {
  const { user } = useAuth();
  const sliderId = `viewer-slice-${useId()}`;
  const queryClient = useQueryClient();
  // The renderer starts while the metadata arrives (the study page may have fetched it already).
  const stack = useQuery({
    queryKey: ['viewer', 'stack', studyUid, seriesUid],
    queryFn: async () => {
      const [datasets] = await Promise.all([
        queryClient.fetchQuery(seriesMetadataQuery(studyUid, seriesUid)),
        setUpCornerstone(),
      ]);
      return registerSeriesStack(studyUid, seriesUid, datasets);
    },
    staleTime: Infinity,
  });
  const metadata = useQuery({ ...seriesMetadataQuery(studyUid, seriesUid), enabled: stack.isSuccess });
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [section, setSection] = useState<HTMLElement | null>(null);
  const slices = stack.data;
  // A retry opens the stack again on the image that failed.
  const [retry, setRetry] = useState<{ attempt: number; index?: number }>({ attempt: 0 });
  const start = useMemo(() => {
    if (retry.index !== undefined) {
      return { index: retry.index };
    }
    const shown = frameToShow?.frame;
    if (shown) {
      const index = slices?.findIndex((slice) => isFrameOf(shown, slice)) ?? -1;
      if (index >= 0) {
        return { index };
      }
    }
    const index = initialView ? (slices?.findIndex((slice) => isFrameOf(initialView, slice)) ?? -1) : -1;
    return index < 0 ? undefined : { index, window: initialView?.window };
  }, [slices, initialView, retry.index, frameToShow]);
  const { viewport, state, toolGroupId } = useStackViewport(
    element,
    slices,
    retry.attempt,
    start,
    layoutCell?.engineId,
  );
  // Linked, the viewport follows the others' scrolling, window, zoom and pan, and they follow it.
  const engineId = layoutCell?.engineId;
  const linkGroup = layoutCell?.linkGroup;
  const linkKinds = layoutCell?.linkKinds;
  useEffect(() => {
    if (!viewport || !engineId || !linkGroup) {
      return undefined;
    }
    return linkViewport(linkGroup, { renderingEngineId: engineId, viewportId: viewport.id }, linkKinds);
  }, [viewport, engineId, linkGroup, linkKinds]);
  // In a layout of several viewports, full screen shows them all.
  const view = useViewCommands(viewport, layoutCell?.container ?? section);
  // Stored annotations are placed once an image is drawn: the viewport's frame of reference and
  // camera, which they are placed by, come with its first image.
  const annotations = useAnnotationSync({
    itemUid,
    seriesUid,
    slices,
    viewport: state.firstImageMs === null ? null : viewport,
    myUid: user?.uid,
  });
  // The study's reports' measurements on this series, read-only.
  useReportedDrawing({
    itemUid,
    seriesUid,
    slices,
    viewport: state.firstImageMs === null ? null : viewport,
  });
  const [tool, setTool] = useState<PrimaryToolId>('window');
  const [isPlaying, setIsPlaying] = useState(false);
  const [framesPerSecond, setFramesPerSecond] = useState(15);
  const [isHelpShown, setIsHelpShown] = useState(false);
  const [isMpr, setIsMpr] = useState(false);
  const count = slices?.length ?? 0;

  const handleTool = useCallback(
    (id: PrimaryToolId) => {
      setTool(id);
      chooseTool(toolGroupId, id);
    },
    [toolGroupId],
  );
  const goTo = useCallback(
    (index: number) => {
      if (viewport && count > 0) {
        void viewport.setImageIdIndex(Math.min(count - 1, Math.max(0, index)));
      }
    },
    [viewport, count],
  );
  // A measurement chosen in the reports' list is shown in the open stack (a new stack opens on it).
  useEffect(() => {
    const shown = frameToShow?.frame;
    const index = shown ? (slices?.findIndex((slice) => isFrameOf(shown, slice)) ?? -1) : -1;
    if (viewport && index >= 0) {
      void viewport.setImageIdIndex(index);
    }
  }, [viewport, slices, frameToShow]);
  const applyWindow = useCallback(
    (window: Window) => {
      viewport?.setProperties({ voiRange: rangeOfWindow(window) });
      viewport?.render();
    },
    [viewport],
  );

  const slice = slices?.[state.index];
  const sliceFailure = slice && state.failed.get(slice.imageId);
  const isKeyImage = Boolean(slice && keyImages?.marked.some((keyImage) => isFrameOf(keyImage, slice)));
  const canToggleKeyImage =
    keyImages !== undefined &&
    slice !== undefined &&
    state.window !== null &&
    (isKeyImage || keyImages.canMarkMore);
  const handleKeyImage = () => {
    if (canToggleKeyImage && slice && state.window) {
      keyImages?.onToggle({
        sop_instance_uid: slice.sopInstanceUid,
        frame: slice.frame,
        window: { center: state.window.center, width: state.window.width },
      });
    }
  };

  // A key image's link brings the viewer into view (the notes that hold the links are below it).
  const isOpenedOnKeyImage = initialView !== undefined;
  useEffect(() => {
    if (isOpenedOnKeyImage) {
      section?.scrollIntoView({ block: 'start' });
    }
  }, [isOpenedOnKeyImage, section]);

  // Cine: the stack plays in a loop at the chosen rate.
  useEffect(() => {
    if (!element || !viewport || !isPlaying) {
      return undefined;
    }
    toolUtilities.cine.playClip(element, { framesPerSecond, loop: true });
    return () => toolUtilities.cine.stopClip(element);
  }, [element, viewport, isPlaying, framesPerSecond]);

  /** Acts on a shortcut; false for a key that is none. */
  const handleKey = (event: ViewerKeyEvent): boolean => {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return false;
    }
    const steps: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10 };
    const key = event.key;
    const primary = PRIMARY_TOOLS.find((candidate) => candidate.key === key);
    const preset =
      modality === 'CT' ? CT_WINDOW_PRESETS.find((candidate) => candidate.key === key) : undefined;
    if (key in steps) {
      goTo(state.index + steps[key]!);
    } else if (key === 'Home') {
      goTo(0);
    } else if (key === 'End') {
      goTo(count - 1);
    } else if (key === ' ') {
      setIsPlaying((playing) => !playing);
    } else if (key === 'i') {
      view.invert();
    } else if (key === '0') {
      view.reset();
    } else if (key === 'Delete' || key === 'Backspace') {
      view.deleteSelected();
    } else if (key === 'f') {
      view.toggleFullScreen();
    } else if (key === '?') {
      setIsHelpShown(true);
    } else if (key === 'k' && keyImages) {
      handleKeyImage();
    } else if (primary) {
      handleTool(primary.id);
    } else if (preset) {
      applyWindow(preset);
    } else {
      return false;
    }
    return true;
  };
  // In a layout, the active viewport takes the keys pressed anywhere in it; alone, its own.
  const keys = layoutCell?.keys;
  const isActiveCell = layoutCell?.isActive ?? false;
  useEffect(() => {
    if (!keys || !isActiveCell) {
      return undefined;
    }
    keys.current = handleKey;
    return () => {
      if (keys.current === handleKey) {
        keys.current = null;
      }
    };
  });
  const handleKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!isTextEntry(event.target) && handleKey(event)) {
      // Also keeps the slider from moving by its own steps (Page Down is ten images, not a tenth).
      event.preventDefault();
    }
  };

  if (stack.isError) {
    return (
      <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
        <span>This series could not be opened in the viewer.</span>
        <Button variant="outline-danger" size="sm" onClick={() => void stack.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (stack.isPending) {
    return <PageSpinner label="Opening the series…" />;
  }
  if (count === 0) {
    return <p className="text-body-secondary">This series has no images to show.</p>;
  }
  if (isMpr && slices && metadata.data) {
    return (
      <MprView
        studyUid={studyUid}
        seriesUid={seriesUid}
        modality={modality}
        slices={slices}
        datasets={metadata.data}
        title={facts.studyLabel ? `${facts.studyLabel} · ${facts.seriesTitle}` : facts.seriesTitle}
        onClose={() => setIsMpr(false)}
      />
    );
  }
  const sliceDataset = metadata.data?.find(
    (dataset) => firstValue(dataset, DICOM_TAGS.sopInstanceUid) === slice?.sopInstanceUid,
  );
  const presets = [...fileWindows(sliceDataset), ...(modality === 'CT' ? CT_WINDOW_PRESETS : [])];
  const toolbar = (
    <ViewerToolbar
      tool={tool}
      onTool={handleTool}
      presets={presets}
      onPreset={applyWindow}
      onInvert={view.invert}
      onReset={view.reset}
      onRotate={view.rotate}
      onFlip={view.flip}
      isPlaying={isPlaying}
      onPlay={() => setIsPlaying((playing) => !playing)}
      framesPerSecond={framesPerSecond}
      onFramesPerSecond={setFramesPerSecond}
      onHelp={() => setIsHelpShown(true)}
      onFullScreen={view.toggleFullScreen}
      keyImage={
        keyImages && {
          isMarked: isKeyImage,
          isEnabled: canToggleKeyImage,
          onToggle: handleKeyImage,
        }
      }
    >
      <MprButton modality={modality} datasets={metadata.data} onOpen={() => setIsMpr(true)} />
    </ViewerToolbar>
  );
  return (
    <section
      ref={setSection}
      className={`diagnostic-viewer${layoutCell?.isActive ? ' is-active' : ''}`}
      aria-label={`Diagnostic viewer: ${facts.seriesTitle}`}
      onPointerDownCapture={layoutCell?.onActivate}
      onFocusCapture={layoutCell?.onActivate}
      onKeyDown={layoutCell ? undefined : handleKeyDown}
    >
      {layoutCell
        ? layoutCell.isActive && layoutCell.toolbarSlot && createPortal(toolbar, layoutCell.toolbarSlot)
        : toolbar}
      <div
        className="viewer-stage"
        tabIndex={0}
        role="application"
        aria-roledescription="image viewer"
        aria-label={`Image ${state.index + 1} of ${count}. Arrow keys change the image; press ? for all shortcuts.`}
        data-testid="viewer-stage"
        data-slice={state.index + 1}
        data-first-image-ms={state.firstImageMs === null ? undefined : Math.round(state.firstImageMs)}
        // The browser's menu would hide the right-button zoom.
        onContextMenu={(event) => event.preventDefault()}
      >
        <div ref={setElement} className="viewer-viewport" data-testid="viewer-viewport" />
        {sliceFailure && (
          // Covers whatever was drawn before, which is not this image; the alert below says it.
          <div className="viewer-image-failure" aria-hidden="true">
            {failureMessage(sliceFailure, state.index + 1)}
          </div>
        )}
        <ViewportOverlay
          facts={facts}
          slice={slice}
          index={state.index}
          count={count}
          window={state.window}
          zoom={state.zoom}
        />
      </div>
      {sliceFailure && (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2 mt-2 mb-0">
          <span>{failureMessage(sliceFailure, state.index + 1)}</span>
          <Button
            variant="outline-danger"
            size="sm"
            onClick={() => setRetry(({ attempt }) => ({ attempt: attempt + 1, index: state.index }))}
          >
            Retry
          </Button>
        </Alert>
      )}
      <div className="viewer-slider d-flex align-items-center gap-3">
        <label htmlFor={sliderId} className="form-label mb-0 text-nowrap small">
          Image {state.index + 1} of {count}
          {slice && slice.sliceLocation !== null && ` · ${slice.sliceLocation.toFixed(1)} mm`}
        </label>
        <input
          id={sliderId}
          type="range"
          className="form-range"
          min={1}
          max={count}
          value={state.index + 1}
          onChange={(event) => goTo(Number(event.target.value) - 1)}
        />
      </div>
      <AnnotationStatus status={annotations.status} isLoadFailed={annotations.isLoadFailed} />
      <StackProgress loaded={state.loaded} failed={[...state.failed.values()]} count={count} />
      <ShortcutsDialog show={isHelpShown} onClose={() => setIsHelpShown(false)} />
    </section>
  );
}
