/**
 * The V8 flags the server runs with; `npm start` (server/package.json) passes the same, and a test
 * checks that the two agree. docs/operations.md §1 ("Node flags") gives the figures.
 *
 * A larger young generation (64 MB semi-spaces): a request's short-lived objects (parsed DICOM
 * headers, query results) die there instead of being promoted, so the old generation fills slowly.
 * With the default, storing a 500-instance study ran about thirty full collections (655a294); on
 * the compiled server, one STOW-RS request of a 500-slice CT after a warm-up study ran 12
 * mark-compact collections in 2.1 s with the default and none in 1.4 s with this flag.
 *
 * A 192 MB floor under the old generation's collection limit (`--initial-old-space-size`): with
 * V8's own limit (the live heap, about 60 MB, plus a tenth) the main thread ran a full collection
 * every 150–250 ms while receiving C-STORE instances or serving frames, and V8's helper threads
 * spent 3–6 ms of CPU per instance on them. A 96 MB floor left less room above the live heap than
 * the young generation may hold, so V8 still began a full mark every 650 ms under STOW-RS; with
 * 192 MB, the server's processor time per stored instance fell by a sixth to two fifths, by
 * request shape. Worker threads keep 96 MB (worker-heap-floor.ts). docs/operations.md §1 gives
 * the bench figures and the memory it costs.
 *
 * `--heap-growing-percent=300` (06bdbd3) is no longer passed: no bench row measured it, and the
 * same check showed no difference beside this flag (none either way, 1.38 s against 1.43 s) for
 * about 110 MB more peak memory. It is also undocumented and refused in NODE_OPTIONS.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--initial-old-space-size=192'];
