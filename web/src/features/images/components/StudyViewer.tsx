import { Suspense, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { firstValue, type KeyImage, type StudySummary } from '@ra/shared';
import type { FrameRequest, KeyImageMarking, LayoutCell } from '../../../viewer/components/DiagnosticViewer';
import { ReportedMeasurementsPanel } from '../../../viewer/components/ReportedMeasurementsPanel';
import type { FrameToShow } from '../../../viewer/reported-measurements';
import { PageSpinner } from '../../../components/PageSpinner';
import { useSeriesOfInstance, useStudySeries } from '../api/study-series';
import { formatShortDate } from '../../../lib/dates';
import { seriesMetadataQuery } from '../../../lib/dicomweb';
import { hangStudy, isImageSeries, shouldLinkByDefault } from '../../../viewer/hanging-protocols';
import { isTextEntry } from '../../../viewer/keyboard';
import { DiagnosticViewer, prepareDiagnosticViewer } from '../../../viewer/viewer-code';
import { SeriesList, seriesTitle } from './SeriesList';
import { layoutOf, seriesOfCells, VIEWER_LAYOUTS, type ViewerLayout } from './viewer-layouts';
import './study-viewer.css';

const VIEWPORT_COUNTS: Record<number, string> = {
  1: 'One viewport',
  2: 'Two viewports',
  4: 'Four viewports',
};

/** Frame of Reference UID (0020,0052): series that share it share the patient's space. */
const FRAME_OF_REFERENCE_UID = '00200052';

function keyOf(keyImage: KeyImage | null): string {
  return keyImage
    ? [keyImage.sop_instance_uid, keyImage.frame, keyImage.window.center, keyImage.window.width].join('|')
    : '';
}

/**
 * A study's series beside the diagnostic viewer, which opens as the study's hanging protocol lays
 * it out (on the key image the page names, if any; the study's preview, `children`, stands in
 * while the series load, or when none has images). Two or four viewports compare series, on one
 * rendering engine, linked when their series share a frame of reference; the list and the toolbar
 * act on the active one. In the reading room (`isReading`) the same layout fills the window, dark,
 * with the series as a strip of thumbnails and `notes` in a side panel.
 */
export function StudyViewer({
  itemUid,
  study,
  patientName,
  focus,
  keyImages,
  isReading = false,
  onReadingChange,
  notes,
  children,
}: {
  itemUid: string;
  study: StudySummary;
  /** The archive's name of the patient, for the viewer's overlay. */
  patientName: string;
  /** The key image the page was opened on, if any. */
  focus: KeyImage | null;
  /** The key images of the note the user writes, when they write one. */
  keyImages?: KeyImageMarking;
  /** The full-window reading layout, rather than a part of the study's page. */
  isReading?: boolean;
  onReadingChange?: (isReading: boolean) => void;
  /** The reading room's side panel: the notes, and the user's own. */
  notes?: ReactNode;
  children: ReactNode;
}) {
  const studyUid = study.study_instance_uid;
  const series = useStudySeries(studyUid);
  const focusSeries = useSeriesOfInstance(studyUid, focus?.sop_instance_uid);
  const hanging = hangStudy(series.data ?? []);
  // The first viewport's series the user chose, until a key image's link is followed.
  const [chosen, setChosen] = useState<{ uid: string; focus: string } | null>(null);
  const chosenUid = chosen?.focus === keyOf(focus) ? chosen.uid : null;
  const hungUids = hanging.cells.filter((uid): uid is string => uid !== null);
  const seriesOfImages = [
    ...hungUids,
    ...(series.data ?? [])
      .filter((item) => isImageSeries(item) && !hungUids.includes(item.uid))
      .map((item) => item.uid),
  ];
  const isFocusMissing = focus !== null && (focusSeries.isError || focusSeries.data === null);
  const firstUid =
    chosenUid ?? (focus && !isFocusMissing ? (focusSeries.data ?? null) : (seriesOfImages[0] ?? null));
  const isFocused = focus !== null && chosenUid === null && firstUid === focusSeries.data;

  // The layout the user chose, else the hanging protocol's.
  const [chosenLayout, setChosenLayout] = useState<ViewerLayout | null>(null);
  const layout = chosenLayout ?? layoutOf(hanging.layout);
  // The other viewports' series, by viewport (index 0 unused).
  const [otherChoices, setOtherChoices] = useState<(string | undefined)[]>([]);
  const cells = seriesOfCells(layout.cells, firstUid, otherChoices, seriesOfImages);
  const [activeCell, setActiveCell] = useState(0);
  const active = Math.min(activeCell, layout.cells - 1);
  const [toolbarSlot, setToolbarSlot] = useState<HTMLDivElement | null>(null);
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const keys: LayoutCell['keys'] = useRef(null);
  const engineId = `layout-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const choose = (uid: string, cell = active) => {
    if (cell === 0) {
      setChosen({ uid, focus: keyOf(focus) });
    } else {
      setOtherChoices((current) => Object.assign([...current], { [cell]: uid }));
    }
  };
  // A report's measurement: shown in the viewport that has its series, else in the active one.
  const [shown, setShown] = useState<(FrameRequest & { cell: number }) | null>(null);
  const showFrame = (frame: FrameToShow) => {
    const open = cells.indexOf(frame.series_instance_uid);
    const cell = open >= 0 ? open : active;
    if (open < 0) {
      choose(frame.series_instance_uid, cell);
    }
    setActiveCell(cell);
    setShown({ frame, cell });
  };

  // Linked by default when the series shown share a frame of reference; the user's choice holds
  // for the layout until another layout is chosen.
  const shownUids = cells.filter((uid): uid is string => uid !== null);
  const distinctUids = [...new Set(shownUids)];
  const metadata = useQueries({
    queries: distinctUids.map((uid) => ({
      ...seriesMetadataQuery(studyUid, uid),
      enabled: shownUids.length > 1,
    })),
  });
  const frameOf = (uid: string) => {
    const first = metadata[distinctUids.indexOf(uid)]?.data?.[0];
    return (first && firstValue(first, FRAME_OF_REFERENCE_UID)) || null;
  };
  const isLinkedByDefault = shouldLinkByDefault(shownUids.map(frameOf));
  const [linkChoice, setLinkChoice] = useState<{ layout: string; isLinked: boolean } | null>(null);
  const isLinked =
    shownUids.length > 1 && (linkChoice?.layout === layout.id ? linkChoice.isLinked : isLinkedByDefault);

  const queryClient = useQueryClient();
  // The viewer's chunk comes while the series are listed, and the series' metadata while the
  // viewer starts: side by side rather than one after the other.
  useEffect(() => {
    void prepareDiagnosticViewer();
  }, []);
  useEffect(() => {
    if (firstUid) {
      void queryClient.prefetchQuery(seriesMetadataQuery(studyUid, firstUid));
    }
  }, [firstUid, studyUid, queryClient]);

  // The reading room fills the window: the page behind it does not scroll.
  useEffect(() => {
    if (!isReading) {
      return undefined;
    }
    document.documentElement.classList.add('reading-room-open');
    return () => document.documentElement.classList.remove('reading-room-open');
  }, [isReading]);
  const [isNotesShown, setIsNotesShown] = useState(false);

  // Keys pressed anywhere in the viewer (a toolbar button, the slider, a thumbnail) go to the
  // active viewport, but for text being typed and for what the notes panel holds.
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as Node;
    if (
      !root?.contains(target) ||
      isTextEntry(event.target) ||
      (target instanceof Element && target.closest('.reading-notes'))
    ) {
      return;
    }
    if (keys.current?.(event)) {
      // Also keeps the slider from moving by its own steps (Page Down is ten images, not a tenth).
      event.preventDefault();
    }
  };

  const viewerFacts = {
    patientName,
    studyDate: study.study_date ? formatShortDate(study.study_date) : '',
    studyDescription: study.study_description,
  };
  const isSingle = layout.cells === 1;
  const canCompare = seriesOfImages.length > 1 || !isSingle;
  const layoutButtons = canCompare ? (
    <ButtonGroup size="sm" aria-label="Viewports">
      {VIEWER_LAYOUTS.map((choice) => (
        <Button
          key={choice.id}
          variant={choice.id === layout.id ? 'secondary' : isReading ? 'outline-light' : 'outline-secondary'}
          aria-pressed={choice.id === layout.id}
          aria-label={`${VIEWPORT_COUNTS[choice.cells]} (${choice.label})`}
          onClick={() => setChosenLayout(choice)}
        >
          {choice.label}
        </Button>
      ))}
    </ButtonGroup>
  ) : null;
  const linkButton =
    shownUids.length > 1 ? (
      <Button
        size="sm"
        variant={isLinked ? 'info' : isReading ? 'outline-light' : 'outline-secondary'}
        aria-pressed={isLinked}
        title="Link viewports: scroll, window, zoom and pan together"
        onClick={() => setLinkChoice({ layout: layout.id, isLinked: !isLinked })}
      >
        Link viewports
      </Button>
    ) : null;
  const seriesList = (
    <>
      {series.isPending && <PageSpinner label="Loading the series…" />}
      {series.isError && (
        <Alert variant="danger">
          <p>The series could not be loaded.</p>
          <Button variant="outline-danger" size="sm" onClick={() => void series.refetch()}>
            Retry
          </Button>
        </Alert>
      )}
      {series.data?.length === 0 && <p className="text-body-secondary">This study has no series.</p>}
      {series.data && series.data.length > 0 && (
        <SeriesList
          studyUid={studyUid}
          series={series.data}
          currentUid={cells[active] ?? null}
          onChoose={(uid) => {
            setShown(null);
            choose(uid);
          }}
        />
      )}
    </>
  );
  const grid =
    isSingle && !cells[0] ? (
      children
    ) : (
      <div className="viewer-layout-grid">
        {cells.map((uid, cell) => {
          const current = uid ? series.data?.find((item) => item.uid === uid) : undefined;
          const isFocusCell = cell === 0 && isFocused;
          if (!current) {
            return (
              <button
                key={`empty-${cell}`}
                type="button"
                className={`viewer-layout-empty${cell === active ? ' is-active' : ''}`}
                aria-pressed={cell === active}
                onClick={() => setActiveCell(cell)}
              >
                Viewport {cell + 1}: choose a series from the list.
              </button>
            );
          }
          return (
            <Suspense key={`${cell}|${current.uid}`} fallback={<PageSpinner label="Loading the viewer…" />}>
              <DiagnosticViewer
                key={isFocusCell ? `${current.uid}|${keyOf(focus)}` : current.uid}
                itemUid={itemUid}
                studyUid={studyUid}
                seriesUid={current.uid}
                modality={current.modality}
                facts={{ ...viewerFacts, seriesTitle: `${current.modality} · ${seriesTitle(current)}` }}
                initialView={isFocusCell ? (focus ?? undefined) : undefined}
                keyImages={keyImages}
                frameToShow={shown?.cell === cell ? shown : undefined}
                layoutCell={{
                  isActive: cell === active,
                  toolbarSlot,
                  container: root,
                  onActivate: () => setActiveCell(cell),
                  engineId,
                  linkGroup: isLinked ? engineId : undefined,
                  keys,
                }}
              />
            </Suspense>
          );
        })}
      </div>
    );

  if (isReading) {
    return (
      <div
        ref={setRoot}
        className={`reading-room layout-${layout.id}`}
        role="region"
        aria-label="Reading room"
        onKeyDown={handleKeyDown}
        data-testid="reading-room"
      >
        <div className="reading-bar">
          <Button
            size="sm"
            variant="outline-light"
            onClick={() => onReadingChange?.(false)}
            title="Back to the study's page"
          >
            ← Study page
          </Button>
          {layoutButtons}
          {linkButton}
          <div ref={setToolbarSlot} className="reading-toolbar" />
          {notes && (
            <Button
              size="sm"
              variant={isNotesShown ? 'light' : 'outline-light'}
              aria-expanded={isNotesShown}
              aria-controls="reading-notes"
              onClick={() => setIsNotesShown((shown) => !shown)}
            >
              Notes
            </Button>
          )}
        </div>
        <div className="reading-body">
          <nav className="reading-series" aria-label="Series">
            {seriesList}
            <ReportedMeasurementsPanel itemUid={itemUid} onShow={showFrame} isDark />
          </nav>
          <div className="reading-viewports">
            {isFocusMissing && (
              <Alert variant="warning">The key image could not be found in this study.</Alert>
            )}
            {grid}
          </div>
          {notes && isNotesShown && (
            <aside id="reading-notes" className="reading-notes" aria-label="Notes">
              {notes}
            </aside>
          )}
        </div>
      </div>
    );
  }
  return (
    <div className="row g-3">
      <section className="col-md-4 col-lg-3" aria-labelledby="study-series-title">
        <h2 id="study-series-title" className="h5">
          Series
        </h2>
        {seriesList}
        <ReportedMeasurementsPanel itemUid={itemUid} onShow={showFrame} />
      </section>
      <div className="col-md-8 col-lg-9">
        {isFocusMissing && <Alert variant="warning">The key image could not be found in this study.</Alert>}
        <div className="d-flex flex-wrap gap-2 mb-2">
          {onReadingChange && (
            <Button size="sm" variant="dark" onClick={() => onReadingChange(true)}>
              Open in reading room
            </Button>
          )}
          {layoutButtons}
          {linkButton}
        </div>
        <div ref={setRoot} className={`viewer-layout layout-${layout.id}`} onKeyDown={handleKeyDown}>
          <div ref={setToolbarSlot} />
          {grid}
        </div>
      </div>
    </div>
  );
}
