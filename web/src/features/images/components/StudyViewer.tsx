import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { StudySummary } from '@ra/shared';
import { PageSpinner } from '../../../components/PageSpinner';
import { useStudySeries } from '../api/study-series';
import { formatShortDate } from '../../../lib/dates';
import { seriesMetadataQuery } from '../../../lib/dicomweb';
import { SeriesList, seriesTitle } from './SeriesList';
import './study-viewer.css';

// The viewer (Cornerstone3D, its codecs and tools) is its own chunk, fetched only by study pages.
const loadViewer = () => import('../../viewer/components/DiagnosticViewer');
const DiagnosticViewer = lazy(loadViewer);

/** Series without pictures to view: reports, key object selections, presentation states, documents. */
const NON_IMAGE_MODALITIES = new Set(['SR', 'KO', 'PR', 'DOC']);

/**
 * A study's series beside the diagnostic viewer, which opens on the first series of images (the
 * study's preview, `children`, stands in while the series load, or when none has images).
 */
export function StudyViewer({
  itemUid,
  study,
  patientName,
  children,
}: {
  itemUid: string;
  study: StudySummary;
  /** The archive's name of the patient, for the viewer's overlay. */
  patientName: string;
  children: ReactNode;
}) {
  const studyUid = study.study_instance_uid;
  const series = useStudySeries(studyUid);
  const [chosenUid, setChosenUid] = useState<string | null>(null);
  // A study opens on its first series of images; the user may choose another.
  const currentUid =
    chosenUid ?? series.data?.find((item) => !NON_IMAGE_MODALITIES.has(item.modality))?.uid ?? null;
  const current = series.data?.find((item) => item.uid === currentUid);
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
            onChoose={setChosenUid}
          />
        )}
      </section>
      <div className="col-md-8 col-lg-9">
        {current ? (
          <Suspense fallback={<PageSpinner label="Loading the viewer…" />}>
            <DiagnosticViewer
              key={current.uid}
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
            />
          </Suspense>
        ) : (
          children
        )}
      </div>
    </div>
  );
}
