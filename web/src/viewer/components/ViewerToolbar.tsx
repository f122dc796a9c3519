import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import { PRIMARY_TOOLS, type PrimaryTool, type PrimaryToolId } from '../cornerstone/viewer-tools';
import type { Window, WindowPreset } from '../cornerstone/window-presets';

/** The viewer's commands: the left button's tool, the window presets, the view's transforms, cine. */
export function ViewerToolbar(props: {
  /** The left button's choices (all the tools unless given). */
  tools?: readonly PrimaryTool[];
  tool: PrimaryToolId;
  onTool: (id: PrimaryToolId) => void;
  presets: readonly WindowPreset[];
  onPreset: (window: Window) => void;
  onInvert: () => void;
  onReset: () => void;
  onRotate: () => void;
  onFlip: (direction: 'flipHorizontal' | 'flipVertical') => void;
  /** Cine, for a stack of images: shown when `onPlay` is given (not for a single picture). */
  isPlaying?: boolean;
  onPlay?: () => void;
  framesPerSecond?: number;
  onFramesPerSecond?: (value: number) => void;
  onHelp: () => void;
  onFullScreen: () => void;
  /** Marking the image shown as a key image of the note, for its authors. */
  keyImage?: { isMarked: boolean; isEnabled: boolean; onToggle: () => void };
  /** More commands of the viewer (MPR), after the view's. */
  children?: ReactNode;
}) {
  return (
    <div className="btn-toolbar gap-2 mb-2" role="toolbar" aria-label="Viewer tools">
      <ButtonGroup size="sm" aria-label="Left button tool">
        {(props.tools ?? PRIMARY_TOOLS).map((tool) => (
          <Button
            key={tool.id}
            variant={props.tool === tool.id ? 'primary' : 'outline-primary'}
            aria-pressed={props.tool === tool.id}
            title={`${tool.label} (${tool.key})`}
            onClick={() => props.onTool(tool.id)}
          >
            {tool.label}
          </Button>
        ))}
      </ButtonGroup>
      {props.presets.length > 0 && (
        <Dropdown>
          <Dropdown.Toggle size="sm" variant="outline-secondary" id="viewer-presets">
            Window preset
          </Dropdown.Toggle>
          <Dropdown.Menu>
            {props.presets.map((preset) => (
              <Dropdown.Item key={preset.name} onClick={() => props.onPreset(preset)}>
                {preset.name} ({preset.key ? `${preset.key}: ` : ''}W {Math.round(preset.width)} L{' '}
                {Math.round(preset.center)})
              </Dropdown.Item>
            ))}
          </Dropdown.Menu>
        </Dropdown>
      )}
      <ButtonGroup size="sm" aria-label="View">
        <Button variant="outline-secondary" onClick={props.onInvert} title="Invert (i)">
          Invert
        </Button>
        <Button variant="outline-secondary" onClick={props.onRotate}>
          Rotate 90°
        </Button>
        <Button variant="outline-secondary" onClick={() => props.onFlip('flipHorizontal')}>
          Flip ↔
        </Button>
        <Button variant="outline-secondary" onClick={() => props.onFlip('flipVertical')}>
          Flip ↕
        </Button>
        <Button variant="outline-secondary" onClick={props.onReset} title="Reset (0)">
          Reset
        </Button>
      </ButtonGroup>
      {props.onPlay && (
        <Cine
          isPlaying={props.isPlaying ?? false}
          onPlay={props.onPlay}
          framesPerSecond={props.framesPerSecond ?? 15}
          onFramesPerSecond={props.onFramesPerSecond ?? (() => undefined)}
        />
      )}
      {props.keyImage && (
        <Button
          size="sm"
          variant={props.keyImage.isMarked ? 'warning' : 'outline-warning'}
          aria-pressed={props.keyImage.isMarked}
          disabled={!props.keyImage.isEnabled}
          onClick={props.keyImage.onToggle}
          title="Key image of your note (k)"
        >
          {props.keyImage.isMarked ? '★ Key image' : '☆ Mark key image'}
        </Button>
      )}
      {props.children}
      <Button size="sm" variant="outline-secondary" onClick={props.onFullScreen} title="Full screen (f)">
        Full screen
      </Button>
      <Button size="sm" variant="outline-secondary" onClick={props.onHelp} aria-label="Keyboard shortcuts">
        ?
      </Button>
    </div>
  );
}

/** Plays the stack in a loop at the chosen rate. */
function Cine(cine: {
  isPlaying: boolean;
  onPlay: () => void;
  framesPerSecond: number;
  onFramesPerSecond: (value: number) => void;
}) {
  return (
    <div className="d-flex align-items-center gap-1">
      <Button
        size="sm"
        variant={cine.isPlaying ? 'secondary' : 'outline-secondary'}
        aria-pressed={cine.isPlaying}
        onClick={cine.onPlay}
        title="Cine (space)"
      >
        {cine.isPlaying ? 'Stop cine' : 'Play cine'}
      </Button>
      <Form.Label htmlFor="viewer-fps" className="mb-0 small">
        Frames/s
      </Form.Label>
      <Form.Control
        id="viewer-fps"
        size="sm"
        type="number"
        min={1}
        max={60}
        value={cine.framesPerSecond}
        onChange={(event) => {
          const value = Number(event.target.value);
          if (Number.isInteger(value) && value >= 1 && value <= 60) {
            cine.onFramesPerSecond(value);
          }
        }}
        style={{ width: '4.5rem' }}
      />
    </div>
  );
}
