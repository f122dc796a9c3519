import { useCallback, useMemo, useState, type KeyboardEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useQuery } from '@tanstack/react-query';
import { cache, imageLoader } from '@cornerstonejs/core';
import { useAuth } from '../../app/auth/auth-context';
import { PageSpinner } from '../../components/PageSpinner';
import { CALIBRATION_NOTES } from '../cornerstone/pixel-spacing';
import { rasterImageId } from '../cornerstone/raster-image-loader';
import { setUpCornerstone } from '../cornerstone/setup';
import { useAnnotationSync } from '../cornerstone/use-annotation-sync';
import { useStackViewport } from '../cornerstone/use-stack-viewport';
import { useViewCommands } from '../cornerstone/use-view-commands';
import { chooseTool, PRIMARY_TOOLS, type PrimaryTool, type PrimaryToolId } from '../cornerstone/viewer-tools';
import { AnnotationStatus } from './AnnotationStatus';
import { ShortcutsDialog, type Shortcut } from './ShortcutsDialog';
import { ViewerToolbar } from './ViewerToolbar';
import { ViewportOverlay, type OverlayFacts } from './ViewportOverlay';
import './diagnostic-viewer.css';

/**
 * The tools that make sense on a photograph or a scan of a film: no values to probe, no areas in
 * pixels of colour. The window tool changes a colour picture's brightness and contrast.
 */
const RASTER_TOOLS: readonly PrimaryTool[] = PRIMARY_TOOLS.filter((tool) =>
  ['window', 'pan', 'zoom', 'length', 'angle', 'arrow'].includes(tool.id),
).map((tool) => (tool.id === 'window' ? { ...tool, label: 'Brightness/contrast' } : tool));

const RASTER_SHORTCUTS: readonly Shortcut[] = [
  ['Left drag', 'The chosen tool (brightness/contrast: across for contrast, up and down for brightness)'],
  ['Middle drag', 'Pan'],
  ['Right drag', 'Zoom'],
  ['i', 'Invert'],
  ['0', 'Reset brightness, contrast, zoom and rotation'],
  ['Delete', 'Delete the selected measurement (your own)'],
  ['f', 'Full screen, or back'],
  ['?', 'This list'],
  ...RASTER_TOOLS.map((tool) => [tool.key, `${tool.label} tool`] as const),
];

export interface RasterViewerProps {
  /** The archive item the annotations belong to. */
  itemUid: string;
  /** The signed URL of the item's file (JPEG or PNG). */
  url: string;
  facts: OverlayFacts;
}

/**
 * A raster archive item (JPEG, PNG) in the diagnostic viewer: zoom, pan, brightness and
 * contrast, rotation, flips, and lengths (in pixels: the file has no spacing) and angles, which
 * are kept with the item like a study's.
 */
export default function RasterViewer({ itemUid, url, facts }: RasterViewerProps) {
  const { user } = useAuth();
  const imageId = rasterImageId(url);
  const image = useQuery({
    queryKey: ['viewer', 'raster', imageId],
    queryFn: async () => {
      await setUpCornerstone();
      // A failed load stays in Cornerstone's cache; Retry must fetch again.
      if (cache.getImageLoadObject(imageId)) {
        cache.removeImageLoadObject(imageId, { force: true });
      }
      const loaded = await imageLoader.loadAndCacheImage(imageId);
      return { width: loaded.width, height: loaded.height };
    },
    staleTime: Infinity,
    retry: false,
  });
  const slices = useMemo(() => (image.isSuccess ? [{ imageId }] : undefined), [image.isSuccess, imageId]);
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [section, setSection] = useState<HTMLElement | null>(null);
  const { viewport, state, toolGroupId } = useStackViewport(element, slices);
  const view = useViewCommands(viewport, section);
  const annotations = useAnnotationSync({
    itemUid,
    rasterImageId: slices ? imageId : undefined,
    viewport,
    myUid: user?.uid,
  });
  const [tool, setTool] = useState<PrimaryToolId>('window');
  const [isHelpShown, setIsHelpShown] = useState(false);

  const handleTool = useCallback(
    (id: PrimaryToolId) => {
      setTool(id);
      chooseTool(toolGroupId, id);
    },
    [toolGroupId],
  );

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const key = event.key;
    const primary = RASTER_TOOLS.find((candidate) => candidate.key === key);
    if (key === 'i') {
      view.invert();
    } else if (key === '0') {
      view.reset();
    } else if (key === 'Delete' || key === 'Backspace') {
      view.deleteSelected();
    } else if (key === 'f') {
      view.toggleFullScreen();
    } else if (key === '?') {
      setIsHelpShown(true);
    } else if (primary) {
      handleTool(primary.id);
    } else {
      return;
    }
    event.preventDefault();
  };

  if (image.isError) {
    return (
      <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
        <span>This image could not be opened in the viewer.</span>
        <Button variant="outline-danger" size="sm" onClick={() => void image.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (image.isPending) {
    return <PageSpinner label="Opening the image…" />;
  }
  const size = `${image.data.width} × ${image.data.height} pixels`;
  return (
    <section ref={setSection} className="diagnostic-viewer" aria-label="Image viewer">
      <ViewerToolbar
        tools={RASTER_TOOLS}
        tool={tool}
        onTool={handleTool}
        presets={[]}
        onPreset={() => undefined}
        onInvert={view.invert}
        onReset={view.reset}
        onRotate={view.rotate}
        onFlip={view.flip}
        onHelp={() => setIsHelpShown(true)}
        onFullScreen={view.toggleFullScreen}
      />
      <div
        className="viewer-stage"
        tabIndex={0}
        role="application"
        aria-roledescription="image viewer"
        aria-label={`Image of ${size}; ${CALIBRATION_NOTES.none}. Press ? for the shortcuts.`}
        onKeyDown={handleKeyDown}
        data-testid="viewer-stage"
        data-first-image-ms={state.firstImageMs === null ? undefined : Math.round(state.firstImageMs)}
        // The browser's menu would hide the right-button zoom.
        onContextMenu={(event) => event.preventDefault()}
      >
        <div ref={setElement} className="viewer-viewport" data-testid="viewer-viewport" />
        <ViewportOverlay
          facts={{ ...facts, seriesTitle: facts.seriesTitle || size }}
          slice={undefined}
          index={0}
          count={1}
          window={state.window}
          zoom={state.zoom}
          spacing="none"
        />
      </div>
      <AnnotationStatus status={annotations.status} isLoadFailed={annotations.isLoadFailed} />
      <ShortcutsDialog
        show={isHelpShown}
        onClose={() => setIsHelpShown(false)}
        shortcuts={RASTER_SHORTCUTS}
      />
    </section>
  );
}
