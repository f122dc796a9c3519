import { STUDY_MESSAGES } from '@ra/shared';
import { isDicomDir, type ChosenFile } from '../../../lib/uploads/file-kind';
import type { BatchFile } from '../../../lib/uploads/upload-batch';
import { SkippedFiles } from './SkippedFiles';
import { describeDicom, describeSkipped } from './upload-selection';

/** What a DICOM choice holds, e.g. "312 DICOM files, 48.2 MB", and which files are left out. */
export function DicomSelectionSummary({ files, skipped }: { files: BatchFile[]; skipped: ChosenFile[] }) {
  return (
    <div className="mb-3">
      <p className="mb-0" role="status">
        {describeDicom(files)}
      </p>
      {skipped.length > 0 && (
        <SkippedFiles
          summary={describeSkipped(skipped.length)}
          files={skipped.map(({ path }) => ({
            name: path,
            reason: isDicomDir(path) ? 'The CD’s index, not an image.' : STUDY_MESSAGES.notDicom,
          }))}
        />
      )}
    </div>
  );
}
