import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { KeyImage, StudySummary } from '@ra/shared';
import type { KeyImageMarking } from '../../viewer/components/DiagnosticViewer';
import { PageSpinner } from '../../../components/PageSpinner';
import { useSeriesOfInstance, useStudySeries } from '../api/study-series';
import { formatShortDate } from '../../../lib/dates';
import { seriesMetadataQuery } from '../../../lib/dicomweb';
import { SeriesList, seriesTitle } from './SeriesList';
import './study-viewer.css';

// The viewer (Cornerstone3D, its codecs and tools) is its own chunk, fetched only by study pages.
const loadViewer = () => import('../../viewer/components/DiagnosticViewer');
const DiagnosticViewer = lazy(loadViewer);

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
 * load, or when none has images).
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
  // A series the user chose, until a key image's link is followed.
  const [chosen, setChosen] = useState<{ uid: string; focus: string } | null>(null);
  const chosenUid = chosen?.focus === keyOf(focus) ? chosen.uid : null;
  const firstOfImages = series.data?.find((item) => !NON_IMAGE_MODALITIES.has(item.modality))?.uid ?? null;
  const isFocusMissing = focus !== null && (focusSeries.isError || focusSeries.data === null);
  const currentUid = chosenUid ?? (focus && !isFocusMissing ? (focusSeries.data ?? null) : firstOfImages);
  const current = series.data?.find((item) => item.uid === currentUid);
  const isFocused = focus !== null && chosenUid === null && currentUid === focusSeries.data;
  const queryClient = useQueryClient();
  // The viewer's chunk comes while the series are listed, and the series' metadata while the
  // viewer starts: side by side rather than one after the other.
  useEffect(() => {
    void loadViewer().then((viewer) => viewer.prepareViewer());
  }, []);
  useEffect(() => {
    if (currentUid) {
      void queryClient.prefetchQuery(seriesMetadataQuery(studyUid, currentUid));
    }
  }, [currentUid, studyUid, queryClient]);
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
            currentUid={currentUid}
            onChoose={(uid) => setChosen({ uid, focus: keyOf(focus) })}
          />
        )}
      </section>
      <div className="col-md-8 col-lg-9">
        {isFocusMissing && <Alert variant="warning">The key image could not be found in this study.</Alert>}
        {current ? (
          <Suspense fallback={<PageSpinner label="Loading the viewer…" />}>
            <DiagnosticViewer
              key={isFocused ? `${current.uid}|${keyOf(focus)}` : current.uid}
              itemUid={itemUid}
              studyUid={studyUid}
              seriesUid={current.uid}
              modality={current.modality}
              facts={{
                patientName,
                studyDate: study.study_date ? formatShortDate(study.study_date) : '',
                studyDescription: study.study_description,
                seriesTitle: `${current.modality} · ${seriesTitle(current)}`,
              }}
              initialView={isFocused ? (focus ?? undefined) : undefined}
              keyImages={keyImages}
            />
          </Suspense>
        ) : (
          children
        )}
      </div>
    </div>
  );
}
