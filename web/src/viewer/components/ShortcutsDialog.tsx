import Modal from 'react-bootstrap/Modal';
import Button from 'react-bootstrap/Button';
import { PRIMARY_TOOLS } from '../cornerstone/viewer-tools';
import { CT_WINDOW_PRESETS } from '../cornerstone/window-presets';

export type Shortcut = readonly [key: string, action: string];

const SHORTCUTS: readonly Shortcut[] = [
  ['↑ / ↓, wheel', 'Previous / next image'],
  ['Page Up / Page Down', 'Ten images back / forward'],
  ['Home / End', 'First / last image'],
  ['Space', 'Play / stop cine'],
  ['i', 'Invert'],
  ['0', 'Reset window, zoom and rotation'],
  ['Left drag', 'The chosen tool'],
  ['Middle drag', 'Pan'],
  ['Right drag', 'Zoom'],
  ['Delete', 'Delete the selected measurement (your own)'],
  ['k', 'Mark the image as a key image of your note, or unmark it'],
  ['f', 'Full screen, or back'],
  ['?', 'This list'],
  ...PRIMARY_TOOLS.map((tool) => [tool.key, `${tool.label} tool`] as const),
  ...CT_WINDOW_PRESETS.map((preset) => [preset.key ?? '', `${preset.name} window (CT)`] as const),
];

/** The viewer's keyboard and mouse shortcuts (a series viewer's unless others are given). */
export function ShortcutsDialog({
  show,
  onClose,
  shortcuts = SHORTCUTS,
}: {
  show: boolean;
  onClose: () => void;
  shortcuts?: readonly Shortcut[];
}) {
  return (
    <Modal show={show} onHide={onClose} aria-labelledby="viewer-shortcuts-title">
      <Modal.Header closeButton>
        <Modal.Title id="viewer-shortcuts-title">Keyboard shortcuts</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <table className="table table-sm mb-0">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {shortcuts.map(([key, action]) => (
              <tr key={`${key}-${action}`}>
                <td>
                  <kbd>{key}</kbd>
                </td>
                <td>{action}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
