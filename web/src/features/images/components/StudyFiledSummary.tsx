import Alert from 'react-bootstrap/Alert';
import type { UploadStudyResponse } from '@ra/shared';
import { SkippedFiles } from './SkippedFiles';
import { counted } from '../../../lib/counted';

/** How many studies and instances were filed, and the files that were not, with why. */
export function StudyFiledSummary({ result }: { result: UploadStudyResponse }) {
  const instances = result.items.reduce((sum, item) => sum + item.instances, 0);
  const skipped = [...result.items.flatMap((item) => item.skipped), ...result.skipped];
  return (
    <Alert variant="success" className="mt-3">
      <p className="mb-0">
        {instances === 0
          ? 'No new instances were filed.'
          : `Filed ${counted(result.items.length, 'study', 'studies')} with ${counted(instances, 'instance', 'instances')}.`}
      </p>
      {skipped.length > 0 && (
        <SkippedFiles
          files={skipped}
          summary={`${counted(skipped.length, 'file was', 'files were')} not filed`}
        />
      )}
    </Alert>
  );
}
