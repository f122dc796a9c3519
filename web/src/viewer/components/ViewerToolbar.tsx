import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import { PRIMARY_TOOLS, type PrimaryTool, type PrimaryToolId } from '../cornerstone/viewer-tools';
import type { Window, WindowPreset } from '../cornerstone/window-presets';
import { ToolbarIcon, type IconName } from './ToolbarIcon';

const TOOL_ICONS: Record<PrimaryToolId, IconName> = {
  window: 'window',
  pan: 'pan',
  zoom: 'zoom',
  length: 'length',
  angle: 'angle',
  ellipse: 'ellipse',
  rectangle: 'rectangle',
  probe: 'probe',
  arrow: 'arrow',
};

/** Pixels between two entries of the row, and those a "More" button takes. */
const GAP = 4;
const MORE_WIDTH = 40;
const UNMEASURED_WIDTH = 36;

/** One command of the toolbar: as a button of the row, and as the "More" menu lists it. */
interface Entry {
  id: string;
  row: ReactNode;
  menu: ReactNode;
}

function presetName(preset: WindowPreset): string {
  return `${preset.name} (${preset.key ? `${preset.key}: ` : ''}W ${Math.round(preset.width)} L ${Math.round(preset.center)})`;
}

/** A command as an icon button: its name for assistive technology, and with its key as a tooltip. */
function command(options: {
  id: string;
  label: string;
  icon: IconName;
  shortcut?: string;
  onClick: () => void;
  isPressed?: boolean;
  isDisabled?: boolean;
  isFilled?: boolean;
}): Entry {
  const title = options.shortcut ? `${options.label} (${options.shortcut})` : options.label;
  return {
    id: options.id,
    row: (
      <Button
        size="sm"
        variant={options.isPressed ? 'primary' : 'outline-light'}
        className="toolbar-button"
        aria-label={options.label}
        aria-pressed={options.isPressed}
        disabled={options.isDisabled}
        title={title}
        onClick={options.onClick}
      >
        <ToolbarIcon name={options.icon} isFilled={options.isFilled} />
      </Button>
    ),
    menu: (
      <Dropdown.Item
        as="button"
        aria-pressed={options.isPressed}
        disabled={options.isDisabled}
        onClick={options.onClick}
        className="d-flex align-items-center gap-2"
      >
        <ToolbarIcon name={options.icon} isFilled={options.isFilled} />
        {title}
        {options.isPressed && <span className="visually-hidden"> (on)</span>}
      </Dropdown.Item>
    ),
  };
}

/**
 * The viewer's commands in one row of icon buttons (each named, with its key in a tooltip): the
 * left button's tool, the window presets, the view's transforms, cine, the key image, full screen
 * and help. What the row has no room for goes into a "More" menu rather than onto a second row.
 */
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
  const entries: Entry[] = (props.tools ?? PRIMARY_TOOLS).map((tool) =>
    command({
      id: `tool-${tool.id}`,
      label: tool.label,
      icon: tool.label === 'Brightness/contrast' ? 'brightness' : TOOL_ICONS[tool.id],
      shortcut: tool.key,
      isPressed: props.tool === tool.id,
      onClick: () => props.onTool(tool.id),
    }),
  );
  if (props.presets.length > 0) {
    entries.push({
      id: 'presets',
      row: (
        <Dropdown>
          <Dropdown.Toggle
            size="sm"
            variant="outline-light"
            className="toolbar-button"
            id="viewer-presets"
            aria-label="Window preset"
            title="Window preset"
          >
            <ToolbarIcon name="presets" />
          </Dropdown.Toggle>
          <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
            {props.presets.map((preset) => (
              <Dropdown.Item key={preset.name} as="button" onClick={() => props.onPreset(preset)}>
                {presetName(preset)}
              </Dropdown.Item>
            ))}
          </Dropdown.Menu>
        </Dropdown>
      ),
      menu: (
        <>
          <Dropdown.Header>Window preset</Dropdown.Header>
          {props.presets.map((preset) => (
            <Dropdown.Item key={preset.name} as="button" onClick={() => props.onPreset(preset)}>
              {presetName(preset)}
            </Dropdown.Item>
          ))}
          <Dropdown.Divider />
        </>
      ),
    });
  }
  entries.push(
    command({ id: 'invert', label: 'Invert', icon: 'invert', shortcut: 'i', onClick: props.onInvert }),
    command({ id: 'reset', label: 'Reset', icon: 'reset', shortcut: '0', onClick: props.onReset }),
  );
  if (props.onPlay) {
    const isPlaying = props.isPlaying ?? false;
    entries.push(
      command({
        id: 'cine',
        label: isPlaying ? 'Stop cine' : 'Play cine',
        icon: isPlaying ? 'stop' : 'play',
        shortcut: 'space',
        isPressed: isPlaying,
        onClick: props.onPlay,
      }),
    );
    const fps = (
      <Form.Control
        size="sm"
        type="number"
        min={1}
        max={60}
        aria-label="Frames per second"
        title="Cine frames per second"
        className="toolbar-fps"
        value={props.framesPerSecond ?? 15}
        onChange={(event) => {
          const value = Number(event.target.value);
          if (Number.isInteger(value) && value >= 1 && value <= 60) {
            props.onFramesPerSecond?.(value);
          }
        }}
      />
    );
    entries.push({
      id: 'fps',
      row: fps,
      menu: <Dropdown.ItemText className="d-flex align-items-center gap-2">Frames/s {fps}</Dropdown.ItemText>,
    });
  }
  if (props.keyImage) {
    entries.push(
      command({
        id: 'key-image',
        label: 'Key image',
        icon: 'star',
        shortcut: 'k',
        isPressed: props.keyImage.isMarked,
        isFilled: props.keyImage.isMarked,
        isDisabled: !props.keyImage.isEnabled,
        onClick: props.keyImage.onToggle,
      }),
    );
  }
  entries.push(
    command({ id: 'rotate', label: 'Rotate 90°', icon: 'rotate', onClick: props.onRotate }),
    command({
      id: 'flip-h',
      label: 'Flip horizontally',
      icon: 'flipHorizontal',
      onClick: () => props.onFlip('flipHorizontal'),
    }),
    command({
      id: 'flip-v',
      label: 'Flip vertically',
      icon: 'flipVertical',
      onClick: () => props.onFlip('flipVertical'),
    }),
  );
  if (props.children) {
    entries.push({
      id: 'more-commands',
      row: props.children,
      menu: <Dropdown.ItemText>{props.children}</Dropdown.ItemText>,
    });
  }
  entries.push(
    command({
      id: 'full-screen',
      label: 'Full screen',
      icon: 'fullScreen',
      shortcut: 'f',
      onClick: props.onFullScreen,
    }),
    command({ id: 'help', label: 'Keyboard shortcuts', icon: 'help', shortcut: '?', onClick: props.onHelp }),
  );
  return <OverflowRow entries={entries} />;
}

/** The entries that fit in the row's width, the rest in a "More" menu at its end. */
function OverflowRow({ entries }: { entries: readonly Entry[] }) {
  const [row, setRow] = useState<HTMLDivElement | null>(null);
  const widths = useRef(new Map<string, number>());
  const [shown, setShown] = useState(entries.length);
  const ids = entries.map((entry) => entry.id).join(' ');

  const fit = useCallback(() => {
    if (!row) {
      return;
    }
    for (const element of row.querySelectorAll<HTMLElement>('[data-entry]')) {
      widths.current.set(element.dataset.entry!, element.offsetWidth);
    }
    const available = row.clientWidth;
    const widthOf = (id: string) => (widths.current.get(id) ?? UNMEASURED_WIDTH) + GAP;
    const all = ids.split(' ').reduce((sum, id) => sum + widthOf(id), 0);
    let count = ids.split(' ').length;
    if (all > available) {
      let used = MORE_WIDTH;
      count = 0;
      for (const id of ids.split(' ')) {
        used += widthOf(id);
        if (used > available) {
          break;
        }
        count += 1;
      }
    }
    setShown(count);
  }, [row, ids]);

  useLayoutEffect(() => {
    fit();
    if (!row) {
      return undefined;
    }
    const observer = new ResizeObserver(fit);
    observer.observe(row);
    return () => observer.disconnect();
  }, [row, fit]);

  const hidden = entries.slice(shown);
  return (
    <div ref={setRow} className="viewer-toolbar" role="toolbar" aria-label="Viewer tools">
      {entries.slice(0, shown).map((entry) => (
        <div key={entry.id} className="toolbar-entry" data-entry={entry.id}>
          {entry.row}
        </div>
      ))}
      {hidden.length > 0 && (
        <Dropdown align="end" className="toolbar-entry">
          <Dropdown.Toggle
            size="sm"
            variant="outline-light"
            className="toolbar-button toolbar-more"
            aria-label="More tools"
            title="More tools"
          >
            <ToolbarIcon name="more" />
          </Dropdown.Toggle>
          <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
            {hidden.map((entry) => (
              <div key={entry.id}>{entry.menu}</div>
            ))}
          </Dropdown.Menu>
        </Dropdown>
      )}
    </div>
  );
}
