import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import type { KeyImage, StudySummary } from '@ra/shared';
import type { KeyImageMarking } from '../../../viewer/components/DiagnosticViewer';
import { PageSpinner } from '../../../components/PageSpinner';
import { useSeriesOfInstance, useStudySeries } from '../api/study-series';
import { formatShortDate } from '../../../lib/dates';
import { seriesMetadataQuery } from '../../../lib/dicomweb';
import { DiagnosticViewer, prepareDiagnosticViewer } from '../../../viewer/viewer-code';
import { SeriesList, seriesTitle } from './SeriesList';
import { seriesOfCells, VIEWER_LAYOUTS, type ViewerLayout } from './viewer-layouts';
import './study-viewer.css';

const VIEWPORT_COUNTS: Record<number, string> = {
  1: 'One viewport',
  2: 'Two viewports',
  4: 'Four viewports',
};

/** Series without pictures to view: reports, key object selections, presentation states, documents. */
const NON_IMAGE_MODALITIES = new Set(['SR', 'KO', 'PR', 'DOC']);

function keyOf(keyImage: KeyImage | null): string {
  return keyImage
    ? [keyImage.sop_instance_uid, keyImage.frame, keyImage.window.center, keyImage.window.width].join('|')
    : '';
}

/**
 * A study's series beside the diagnostic viewer, which opens on the key image the page names or
 * else on the first series of images (the study's preview, `children`, stands in while the series
 * load, or when none has images). Two or four viewports compare series; the list and the toolbar
 * act on the active one.
 */
export function StudyViewer({
  itemUid,
  study,
  patientName,
  focus,
  keyImages,
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
  children: ReactNode;
}) {
  const studyUid = study.study_instance_uid;
  const series = useStudySeries(studyUid);
  const focusSeries = useSeriesOfInstance(studyUid, focus?.sop_instance_uid);
  // The first viewport's series the user chose, until a key image's link is followed.
  const [chosen, setChosen] = useState<{ uid: string; focus: string } | null>(null);
  const chosenUid = chosen?.focus === keyOf(focus) ? chosen.uid : null;
  const seriesOfImages = (series.data ?? [])
    .filter((item) => !NON_IMAGE_MODALITIES.has(item.modality))
    .map((item) => item.uid);
  const isFocusMissing = focus !== null && (focusSeries.isError || focusSeries.data === null);
  const firstUid =
    chosenUid ?? (focus && !isFocusMissing ? (focusSeries.data ?? null) : (seriesOfImages[0] ?? null));
  const isFocused = focus !== null && chosenUid === null && firstUid === focusSeries.data;

  const [layout, setLayout] = useState<ViewerLayout>(VIEWER_LAYOUTS[0]);
  // The other viewports' series, by viewport (index 0 unused).
  const [otherChoices, setOtherChoices] = useState<(string | undefined)[]>([]);
  const cells = seriesOfCells(layout.cells, firstUid, otherChoices, seriesOfImages);
  const [activeCell, setActiveCell] = useState(0);
  const active = Math.min(activeCell, layout.cells - 1);
  const [toolbarSlot, setToolbarSlot] = useState<HTMLDivElement | null>(null);
  const [layoutElement, setLayoutElement] = useState<HTMLDivElement | null>(null);
  const choose = (uid: string) => {
    if (active === 0) {
      setChosen({ uid, focus: keyOf(focus) });
    } else {
      setOtherChoices((current) => Object.assign([...current], { [active]: uid }));
    }
  };

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

  const viewerFacts = {
    patientName,
    studyDate: study.study_date ? formatShortDate(study.study_date) : '',
    studyDescription: study.study_description,
  };
  const isSingle = layout.cells === 1;
  return (
    <div className="row g-3">
      <section className="col-md-4 col-lg-3" aria-labelledby="study-series-title">
        <h2 id="study-series-title" className="h5">
          Series
        </h2>
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
            onChoose={choose}
          />
        )}
      </section>
      <div className="col-md-8 col-lg-9">
        {isFocusMissing && <Alert variant="warning">The key image could not be found in this study.</Alert>}
        {seriesOfImages.length > 1 || !isSingle ? (
          <ButtonGroup size="sm" className="mb-2" aria-label="Viewports">
            {VIEWER_LAYOUTS.map((choice) => (
              <Button
                key={choice.id}
                variant={choice.id === layout.id ? 'secondary' : 'outline-secondary'}
                aria-pressed={choice.id === layout.id}
                aria-label={`${VIEWPORT_COUNTS[choice.cells]} (${choice.label})`}
                onClick={() => setLayout(choice)}
              >
                {choice.label}
              </Button>
            ))}
          </ButtonGroup>
        ) : null}
        {isSingle && !cells[0] ? (
          children
        ) : (
          <div ref={setLayoutElement} className={`viewer-layout layout-${layout.id}`}>
            {!isSingle && <div ref={setToolbarSlot} />}
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
                  <Suspense
                    key={`${cell}|${current.uid}`}
                    fallback={<PageSpinner label="Loading the viewer…" />}
                  >
                    <DiagnosticViewer
                      key={isFocusCell ? `${current.uid}|${keyOf(focus)}` : current.uid}
                      itemUid={itemUid}
                      studyUid={studyUid}
                      seriesUid={current.uid}
                      modality={current.modality}
                      facts={{ ...viewerFacts, seriesTitle: `${current.modality} · ${seriesTitle(current)}` }}
                      initialView={isFocusCell ? (focus ?? undefined) : undefined}
                      keyImages={keyImages}
                      layoutCell={
                        isSingle
                          ? undefined
                          : {
                              isActive: cell === active,
                              toolbarSlot,
                              container: layoutElement,
                              onActivate: () => setActiveCell(cell),
                            }
                      }
                    />
                  </Suspense>
                );
              })}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
