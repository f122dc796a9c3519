import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { chosenFilesOf, chosenFilesOfDrop } from '../../../lib/uploads/dropped-files';
import type { ChosenFile } from '../../../lib/uploads/file-kind';

/**
 * The 'Image' file input, which takes one image or many DICOM files, 'Choose a folder' for a CD's
 * contents, and a drop zone around both for files and folders. There is no `accept` filter: DICOM
 * files often have no extension, so what each file is is read from its bytes afterwards.
 */
export function UploadFileChooser({
  disabled,
  onChoose,
}: {
  disabled: boolean;
  onChoose: (chosen: ChosenFile[]) => void;
}) {
  const folderInput = useRef<HTMLInputElement | null>(null);
  const [isDragOver, setIsDragOver] = useState(false);

  function setFolderInput(input: HTMLInputElement | null) {
    folderInput.current = input;
    // React has no webkitdirectory prop; the attribute makes the browser offer folders.
    input?.setAttribute('webkitdirectory', '');
  }

  function handleDragOver(event: React.DragEvent) {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    setIsDragOver(!disabled);
  }

  function handleDrop(event: React.DragEvent) {
    event.preventDefault();
    setIsDragOver(false);
    if (!disabled) {
      void chosenFilesOfDrop(event.dataTransfer).then(onChoose);
    }
  }

  return (
    <Form.Group className="mb-3" controlId="upload-file">
      <Form.Label>Image</Form.Label>
      <div
        className={`drop-zone rounded p-2${isDragOver ? ' is-drag-over' : ''}`}
        onDragOver={handleDragOver}
        onDragLeave={() => setIsDragOver(false)}
        onDrop={handleDrop}
      >
        <Form.Control
          type="file"
          multiple
          disabled={disabled}
          aria-describedby="upload-file-help"
          onChange={(event) => onChoose(chosenFilesOf((event.target as HTMLInputElement).files))}
        />
        <div className="d-flex flex-wrap align-items-center gap-2 mt-2">
          <Button
            variant="outline-secondary"
            size="sm"
            disabled={disabled}
            onClick={() => folderInput.current?.click()}
          >
            Choose a folder
          </Button>
          <span className="small text-body-secondary">or drop files or a folder here</span>
        </div>
        <input
          ref={setFolderInput}
          type="file"
          className="d-none"
          tabIndex={-1}
          aria-label="Choose a folder"
          disabled={disabled}
          onChange={(event) => onChoose(chosenFilesOf(event.target.files))}
        />
      </div>
      <Form.Text id="upload-file-help">
        A JPEG, PNG, WebP, GIF or TIFF image, or a study’s DICOM files: .dcm files, a ZIP, or a whole folder
        such as the contents of a CD.
      </Form.Text>
    </Form.Group>
  );
}
