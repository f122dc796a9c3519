import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import type { UploadStudyResponse } from '@ra/shared';
import { SkippedFiles } from './SkippedFiles';
import { counted } from '../../../lib/counted';
import { imageViewPath } from '../../../lib/paths';

/**
 * What the filing stored: the instances, and the studies that gained at least one (a study whose
 * files were all in the archive already gained nothing); then the files that were not filed, with why.
 */
export function StudyFiledSummary({ result }: { result: UploadStudyResponse }) {
  const instances = result.items.reduce((sum, item) => sum + item.instances, 0);
  const studies = result.items.filter((item) => item.instances > 0).length;
  // An item's skipped files are its instances the archive held already.
  const alreadyFiled = result.items.flatMap((item) => item.skipped);
  const skipped = [...alreadyFiled, ...result.skipped];
  const sentences = [
    instances === 0
      ? 'No new instances were filed.'
      : `Filed ${counted(studies, 'study', 'studies')} with ${counted(instances, 'instance', 'instances')}.`,
  ];
  if (alreadyFiled.length > 0) {
    sentences.push(`${counted(alreadyFiled.length, 'file was', 'files were')} already in the archive.`);
  }
  if (result.skipped.length > 0) {
    sentences.push(`${counted(result.skipped.length, 'file was', 'files were')} skipped.`);
  }
  const filed = result.items.filter((item) => item.instances > 0);
  return (
    <Alert variant="success" className="mt-3">
      <p className="mb-0">
        {sentences.join(' ')}
        {filed.length === 1 && (
          <>
            {' '}
            <Link to={imageViewPath(filed[0]!.uid)}>View the study</Link>
          </>
        )}
      </p>
      {filed.length > 1 && (
        <ul className="mb-0 mt-1">
          {filed.map((item, index) => (
            <li key={item.uid}>
              <Link to={imageViewPath(item.uid)}>View study {index + 1}</Link> (
              {counted(item.instances, 'instance', 'instances')})
            </li>
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <SkippedFiles
          files={skipped}
          summary={`${counted(skipped.length, 'file was', 'files were')} not filed`}
        />
      )}
    </Alert>
  );
}
