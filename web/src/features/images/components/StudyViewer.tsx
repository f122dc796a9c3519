import { Suspense, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { firstValue, type Image, type KeyImage, type StudySummary } from '@ra/shared';
import type { FrameRequest, KeyImageMarking, LayoutCell } from '../../../viewer/components/DiagnosticViewer';
import { ReportedMeasurementsPanel } from '../../../viewer/components/ReportedMeasurementsPanel';
import type { FrameToShow } from '../../../viewer/reported-measurements';
import { PageSpinner } from '../../../components/PageSpinner';
import { useSeriesOfInstance, useStudySeries } from '../api/study-series';
import { formatShortDate } from '../../../lib/dates';
import { seriesMetadataQuery } from '../../../lib/dicomweb';
import {
  hangStudy,
  hangWithPrior,
  isImageSeries,
  POSITION_FREE_LINKS,
  shouldLinkByDefault,
} from '../../../viewer/hanging-protocols';
import { isTextEntry } from '../../../viewer/keyboard';
import { DiagnosticViewer, prepareDiagnosticViewer } from '../../../viewer/viewer-code';
import { ComparePriorButton } from './ComparePriorButton';
import { SeriesList, seriesTitle } from './SeriesList';
import { studyLabel, usePriorComparison, type ShownStudy } from './use-prior-comparison';
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
 * with the series as a strip of thumbnails and `notes` in a side panel; there, when the patient
 * has a prior study the user may see, "Compare with prior" hangs the study beside it.
 */
export function StudyViewer({
  itemUid,
  filing,
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
  /** Whose list the item is in and when it was uploaded: what its prior is found by. */
  filing: Pick<Image, 'patient_uid' | 'createdAt'>;
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

  // In the reading room, the study beside its prior when the user compares them.
  const priorStudy = usePriorComparison({
    item: { uid: itemUid, ...filing },
    study,
    series: series.data,
    isEnabled: isReading,
  });
  const [isComparing, setIsComparing] = useState(false);
  const isCompared = isComparing && priorStudy !== null;
  const priorHanging =
    isCompared && series.data && priorStudy.series.data
      ? hangWithPrior(series.data, priorStudy.series.data, firstUid)
      : null;
  // Each side's series the user chose while comparing, by viewport.
  const [compareChoices, setCompareChoices] = useState<(string | undefined)[]>([]);

  // The layout the user chose, else the hanging protocol's.
  const [chosenLayout, setChosenLayout] = useState<ViewerLayout | null>(null);
  const layout = isCompared ? layoutOf('1x2') : (chosenLayout ?? layoutOf(hanging.layout));
  // The other viewports' series, by viewport (index 0 unused).
  const [otherChoices, setOtherChoices] = useState<(string | undefined)[]>([]);
  const currentStudy: ShownStudy = { role: 'current', itemUid, study, series };
  const cells: { source: ShownStudy; uid: string | null }[] = isCompared
    ? [
        { source: currentStudy, uid: compareChoices[0] ?? priorHanging?.cells[0]?.series ?? firstUid },
        {
          source: priorStudy,
          uid:
            compareChoices[1] ??
            priorHanging?.cells[1]?.series ??
            priorStudy.series.data?.find(isImageSeries)?.uid ??
            null,
        },
      ]
    : seriesOfCells(layout.cells, firstUid, otherChoices, seriesOfImages).map((uid) => ({
        source: currentStudy,
        uid,
      }));
  const [activeCell, setActiveCell] = useState(0);
  const active = Math.min(activeCell, layout.cells - 1);
  const activeStudy = cells[active]?.source ?? currentStudy;
  const [toolbarSlot, setToolbarSlot] = useState<HTMLDivElement | null>(null);
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const keys: LayoutCell['keys'] = useRef(null);
  const engineId = `layout-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const choose = (uid: string, cell = active) => {
    if (isCompared) {
      setCompareChoices((current) => Object.assign([...current], { [cell]: uid }));
    } else if (cell === 0) {
      setChosen({ uid, focus: keyOf(focus) });
    } else {
      setOtherChoices((current) => Object.assign([...current], { [cell]: uid }));
    }
  };
  // A report's measurement: shown in the viewport that has its series, else in the active one.
  const [shown, setShown] = useState<(FrameRequest & { cell: number }) | null>(null);
  const showFrame = (frame: FrameToShow) => {
    // The reports are this study's: beside its prior, the first viewport is this study's.
    const open = cells.findIndex(
      ({ source, uid }) => source.role === 'current' && uid === frame.series_instance_uid,
    );
    const cell = open >= 0 ? open : isCompared ? 0 : active;
    if (open < 0) {
      choose(frame.series_instance_uid, cell);
    }
    setActiveCell(cell);
    setShown({ frame, cell });
  };

  // Linked by default when the series shown share a frame of reference (a prior has its own, so
  // is not); the user's choice holds for the layout (comparing is one) until another is chosen.
  const shownKeys = cells.flatMap(({ source, uid }) =>
    uid ? [`${source.study.study_instance_uid}|${uid}`] : [],
  );
  const distinctKeys = [...new Set(shownKeys)];
  const metadata = useQueries({
    queries: distinctKeys.map((key) => ({
      ...seriesMetadataQuery(...(key.split('|') as [string, string])),
      enabled: shownKeys.length > 1,
    })),
  });
  const frameOf = (key: string) => {
    const first = metadata[distinctKeys.indexOf(key)]?.data?.[0];
    return (first && firstValue(first, FRAME_OF_REFERENCE_UID)) || null;
  };
  const isLinkedByDefault = shouldLinkByDefault(shownKeys.map(frameOf));
  const linkLayout = isCompared ? 'beside-prior' : layout.id;
  const [linkChoice, setLinkChoice] = useState<{ layout: string; isLinked: boolean } | null>(null);
  const isLinked =
    shownKeys.length > 1 && (linkChoice?.layout === linkLayout ? linkChoice.isLinked : isLinkedByDefault);

  const queryClient = useQueryClient();
  // The series' metadata is asked for first, then the viewer starts while it arrives: running the
  // viewer's code (a few hundred milliseconds here, when a link's page shell or a pointer over the
  // link has fetched it already) would otherwise hold the request back.
  useEffect(() => {
    if (!firstUid) {
      return undefined;
    }
    void queryClient.prefetchQuery(seriesMetadataQuery(studyUid, firstUid));
    const starting = setTimeout(() => void prepareDiagnosticViewer(), 0);
    return () => clearTimeout(starting);
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

  const factsOf = (shown: StudySummary) => ({
    patientName,
    studyDate: shown.study_date ? formatShortDate(shown.study_date) : '',
    studyDescription: shown.study_description,
  });
  const isSingle = layout.cells === 1;
  const isLayoutPressed = (id: string) => !isCompared && id === layout.id;
  const canCompare = seriesOfImages.length > 1 || !isSingle;
  const layoutButtons = canCompare ? (
    <ButtonGroup size="sm" aria-label="Viewports">
      {VIEWER_LAYOUTS.map((choice) => (
        <Button
          key={choice.id}
          variant={
            isLayoutPressed(choice.id) ? 'secondary' : isReading ? 'outline-light' : 'outline-secondary'
          }
          aria-pressed={isLayoutPressed(choice.id)}
          aria-label={`${VIEWPORT_COUNTS[choice.cells]} (${choice.label})`}
          onClick={() => {
            setChosenLayout(choice);
            setIsComparing(false);
          }}
        >
          {choice.label}
        </Button>
      ))}
    </ButtonGroup>
  ) : null;
  const linkButton =
    shownKeys.length > 1 ? (
      <Button
        size="sm"
        variant={isLinked ? 'info' : isReading ? 'outline-light' : 'outline-secondary'}
        aria-pressed={isLinked}
        title={
          isCompared
            ? 'Link viewports: window, zoom and pan together (not scrolling: the two studies lie in different patient spaces)'
            : 'Link viewports: scroll, window, zoom and pan together'
        }
        onClick={() => setLinkChoice({ layout: linkLayout, isLinked: !isLinked })}
      >
        Link viewports
      </Button>
    ) : null;
  const comparePriorButton = priorStudy && (
    <ComparePriorButton
      priorLabel={studyLabel(priorStudy)}
      isOn={isCompared}
      onToggle={() => setIsComparing(!isCompared)}
    />
  );
  // The active viewport's study: the prior's series are chosen from when its viewport is active.
  const listed = activeStudy.series;
  const seriesList = (
    <>
      {isCompared && <p className="reading-series-study">{studyLabel(activeStudy)}</p>}
      {listed.isPending && <PageSpinner label="Loading the series…" />}
      {listed.isError && (
        <Alert variant="danger">
          <p>The series could not be loaded.</p>
          <Button variant="outline-danger" size="sm" onClick={() => void listed.refetch()}>
            Retry
          </Button>
        </Alert>
      )}
      {listed.data?.length === 0 && <p className="text-body-secondary">This study has no series.</p>}
      {listed.data && listed.data.length > 0 && (
        <SeriesList
          studyUid={activeStudy.study.study_instance_uid}
          series={listed.data}
          currentUid={cells[active]?.uid ?? null}
          onChoose={(uid) => {
            setShown(null);
            choose(uid);
          }}
        />
      )}
    </>
  );
  const grid =
    isSingle && !cells[0]?.uid ? (
      children
    ) : (
      <div className="viewer-layout-grid">
        {cells.map(({ source, uid }, cell) => {
          const current = uid ? source.series.data?.find((item) => item.uid === uid) : undefined;
          const isFocusCell = cell === 0 && isFocused && source.role === 'current' && uid === firstUid;
          const shownStudyUid = source.study.study_instance_uid;
          if (!current && source.role === 'prior' && !source.series.isSuccess) {
            // The prior's series, still listed or not to be had: the current study stays as it is.
            return source.series.isError ? (
              <Alert key={`prior-${cell}`} variant="danger">
                <p>The prior study's series could not be loaded.</p>
                <Button variant="outline-danger" size="sm" onClick={() => void source.series.refetch()}>
                  Retry
                </Button>
              </Alert>
            ) : (
              <PageSpinner key={`prior-${cell}`} label="Loading the prior study…" />
            );
          }
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
            <Suspense
              key={`${cell}|${shownStudyUid}|${current.uid}`}
              fallback={<PageSpinner label="Loading the viewer…" />}
            >
              <DiagnosticViewer
                key={isFocusCell ? `${current.uid}|${keyOf(focus)}` : current.uid}
                itemUid={source.itemUid}
                studyUid={shownStudyUid}
                seriesUid={current.uid}
                modality={current.modality}
                facts={{
                  ...factsOf(source.study),
                  ...(isCompared && { studyLabel: studyLabel(source) }),
                  seriesTitle: `${current.modality} · ${seriesTitle(current)}`,
                }}
                initialView={isFocusCell ? (focus ?? undefined) : undefined}
                // Key images are marked in the note on this study, not on its prior.
                keyImages={source.role === 'current' ? keyImages : undefined}
                frameToShow={shown?.cell === cell ? shown : undefined}
                layoutCell={{
                  isActive: cell === active,
                  toolbarSlot,
                  container: root,
                  onActivate: () => setActiveCell(cell),
                  engineId,
                  linkGroup: isLinked ? engineId : undefined,
                  // A study and its prior in two patient spaces: window, zoom and pan only.
                  linkKinds: isCompared && !isLinkedByDefault ? POSITION_FREE_LINKS : undefined,
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
          {comparePriorButton}
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
