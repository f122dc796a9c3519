/** The toolbar's icons: simple line drawings on a 16-unit square, in the text's colour. */
const PATHS = {
  window: 'M8 1.5a6.5 6.5 0 1 0 0 13zM8 1.5a6.5 6.5 0 0 1 0 13',
  pan: 'M8 1v14M1 8h14M8 1 6 3M8 1l2 2M8 15l-2-2M8 15l2-2M1 8l2-2M1 8l2 2M15 8l-2-2M15 8l-2 2',
  zoom: 'M6.5 2a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zM10 10l4.5 4.5M4.5 6.5h4M6.5 4.5v4',
  length: 'M2 14 14 2M2 14l2-.5M2 14l.5-2M14 2l-2 .5M14 2l-.5 2M5 9l2 2M8 6l2 2',
  angle: 'M2 14h12M2 14 10 3M6 14a4 4 0 0 0-1.6-3.2',
  ellipse: 'M8 3.5c3.6 0 6.5 2 6.5 4.5S11.6 12.5 8 12.5 1.5 10.5 1.5 8 4.4 3.5 8 3.5z',
  rectangle: 'M2 3.5h12v9H2z',
  probe: 'M8 1v4M8 11v4M1 8h4M11 8h4M8 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z',
  arrow: 'M14 14 3 3M3 3h5M3 3v5',
  presets: 'M2 4h12M2 8h12M2 12h12M5 2.5v3M11 6.5v3M7 10.5v3',
  invert: 'M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM8 1.5v13M8 4h3M8 7h4M8 10h3.5',
  rotate: 'M13.5 8A5.5 5.5 0 1 1 8 2.5h3M11 2.5 9 .8M11 2.5 9 4.2',
  flipHorizontal: 'M8 1v14M6 4 2 8l4 4zM10 4l4 4-4 4z',
  flipVertical: 'M1 8h14M4 6l4-4 4 4zM4 10l4 4 4-4z',
  reset: 'M2.5 8A5.5 5.5 0 1 0 8 2.5H5M5 2.5 7 .8M5 2.5 7 4.2',
  play: 'M4 2.5v11l9-5.5z',
  stop: 'M4 4h8v8H4z',
  star: 'M8 1.5l2 4.2 4.5.6-3.3 3.1.8 4.5L8 11.7l-4 2.2.8-4.5L1.5 6.3 6 5.7z',
  fullScreen: 'M1.5 5.5v-4h4M10.5 1.5h4v4M14.5 10.5v4h-4M5.5 14.5h-4v-4',
  help: 'M5.5 6a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.5v.7M8 12.5v1',
  more: 'M3 8h.01M8 8h.01M13 8h.01',
  link: 'M6.5 9.5l3-3M7 4.5l1.5-1.5a2.5 2.5 0 0 1 3.5 3.5L10.5 8M9 11.5l-1.5 1.5A2.5 2.5 0 0 1 4 9.5L5.5 8',
  back: 'M10 3 5 8l5 5',
  compare: 'M1.5 3h5.5v10H1.5zM9 3h5.5v10H9zM3.5 6h1.5M11 6h1.5',
  notes: 'M3 1.5h7l3 3v10H3zM5.5 7h5M5.5 9.5h5M5.5 12h3',
  brightness:
    'M8 5a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6 13 13M3 13l1.4-1.4M11.6 4.4 13 3',
} as const;

export type IconName = keyof typeof PATHS;

export function ToolbarIcon({ name, isFilled = false }: { name: IconName; isFilled?: boolean }) {
  return (
    <svg
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
      className="toolbar-icon"
      fill={isFilled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={name === 'more' ? 3 : 1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
