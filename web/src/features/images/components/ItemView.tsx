import { useMemo, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { useSearchParams } from 'react-router';
import { ANNOTATION_LIMITS, DOWNLOAD_PATHS, type Image, type KeyImage } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { DownloadButton } from '../../../components/DownloadButton';
import { LinkButton } from '../../../components/LinkButton';
import { StudyFacts } from '../../../components/StudyFacts';
import { formatDateTime } from '../../../lib/dates';
import { PATHS } from '../../../lib/paths';
import { isSameFrame, keyImageFromSearch } from '../key-image-link';
import { ImageNotes } from './ImageNotes';
import { ImageStage } from './ImageStage';
import { NoteEditor } from './NoteEditor';
import { PatientInFiles } from './PatientInFiles';
import { RasterImageViewer } from './RasterImageViewer';
import { RateRadiologist } from './RateRadiologist';
import { SendToDicomNode } from './SendToDicomNode';
import { StudyViewer } from './StudyViewer';
import { ShareButton } from '../../../components/ShareDialog';

/**
 * An archive item's page once loaded: the study in the viewer (or the image), the notes, and the
 * signed-in author's own note with the key images they mark in the viewer.
 */
export function ItemView({ data }: { data: Image }) {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const focus = useMemo(() => keyImageFromSearch(new URLSearchParams(search)), [search]);
  // The reading room is a mode of the page, in its address: a reload, or the browser's Back, keeps it.
  const isReading = Boolean(data.study) && params.get('reading') === '1';
  const setReading = (on: boolean) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (on) {
        next.set('reading', '1');
      } else {
        next.delete('reading');
      }
      return next;
    });
  const own = data.authors.find((author) => author.uid === user?.uid);
  const isAuthor = user?.role === 'Physician' || user?.role === 'Radiologist';
  const [keyImages, setKeyImages] = useState<KeyImage[]>(own?.key_images ?? []);
  const toggleKeyImage = (keyImage: KeyImage) =>
    setKeyImages((current) =>
      current.some((marked) => isSameFrame(marked, keyImage))
        ? current.filter((marked) => !isSameFrame(marked, keyImage))
        : [...current, keyImage],
    );
  const keyImageMarking = isAuthor
    ? {
        marked: keyImages,
        canMarkMore: keyImages.length < ANNOTATION_LIMITS.keyImages,
        onToggle: toggleKeyImage,
      }
    : undefined;
  const noteEditor = (submitLabel: string) => (
    <NoteEditor
      imageUid={data.uid}
      initialNote={own?.note ?? ''}
      submitLabel={submitLabel}
      keyImages={data.study ? keyImages : undefined}
      onRemoveKeyImage={toggleKeyImage}
    />
  );
  const notes = (
    <>
      <ImageNotes itemUid={data.uid} authors={data.authors} />
      {user?.role === 'Physician' && noteEditor('Save Note')}
      {user?.role === 'Radiologist' && noteEditor('Submit Analysis')}
    </>
  );
  if (isReading && data.study) {
    return (
      <StudyViewer
        itemUid={data.uid}
        filing={data}
        study={data.study}
        patientName={`${data.first_name} ${data.last_name}`}
        focus={focus}
        keyImages={keyImageMarking}
        isReading
        onReadingChange={setReading}
        notes={notes}
      >
        <ImageStage image={data} />
      </StudyViewer>
    );
  }
  return (
    <Container className="py-5">
      <h1 className="mb-1">
        {data.first_name} {data.last_name}
      </h1>
      <p className={data.study ? 'text-body-secondary mb-1' : 'text-body-secondary'}>
        Uploaded {formatDateTime(data.createdAt)}
        {/* A study's width and height are its preview's, which say nothing of the study. */}
        {!data.study && ` · ${data.width} × ${data.height} pixels`}
      </p>
      <div className="d-flex flex-wrap gap-2 mb-3">
        <DownloadButton
          path={DOWNLOAD_PATHS.item(data.uid)}
          label="Download"
          fallbackName={`radiology-archive-${data.uid}.zip`}
          variant="outline-secondary"
        />
        {/* The patient and their physician may share the item; a radiologist may not. */}
        {(user?.role === 'Patient' || user?.role === 'Physician') && <ShareButton itemUid={data.uid} />}
      </div>
      {data.study && (
        <>
          <StudyFacts study={data.study} isCompact={false} className="mb-2" />
          <PatientInFiles study={data.study} className="mb-3" />
          <StudyViewer
            itemUid={data.uid}
            filing={data}
            study={data.study}
            patientName={`${data.first_name} ${data.last_name}`}
            focus={focus}
            keyImages={keyImageMarking}
            onReadingChange={setReading}
          >
            <ImageStage image={data} />
          </StudyViewer>
          {user?.role === 'Physician' && <SendToDicomNode itemUid={data.uid} />}
        </>
      )}
      {!data.study && (
        <RasterImageViewer image={data}>
          <ImageStage image={data} />
        </RasterImageViewer>
      )}
      {notes}
      {user?.role === 'Patient' && (
        <Card className="mt-4">
          <Card.Body>
            <Card.Title as="h2" className="h5">
              Want a Second Opinion?
            </Card.Title>
            <Card.Text>
              A radiologist of your choice can review this image and write their opinion here.
            </Card.Text>
            <LinkButton to={PATHS.secondOpinion}>Get a Second Opinion</LinkButton>
          </Card.Body>
        </Card>
      )}
      {user?.role === 'Patient' && (
        <RateRadiologist radiologists={data.authors.filter((author) => author.role === 'RADIOLOGIST')} />
      )}
      <div className="mt-4">
        <LinkButton
          to={user?.role === 'Patient' ? PATHS.imageLibrary : PATHS.patients}
          variant="outline-secondary"
        >
          Back
        </LinkButton>
      </div>
    </Container>
  );
}
