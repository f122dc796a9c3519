/**
 * The V8 flags the server runs with; `npm start` (server/package.json) passes the same, and a test
 * checks that the two agree.
 *
 * - A larger young generation: a request's short-lived objects (parsed DICOM headers, query
 *   results) die there instead of being promoted, so the old generation fills slowly. With the
 *   default, storing a 500-instance study ran about thirty full collections.
 * - The old generation may grow to four times what the last full collection left before the next
 *   one (V8 otherwise picks a factor between 1.1 and 4 from how fast it collects). With V8's pick,
 *   storing a 500-instance study by STOW-RS still ran five to ten full collections, whose
 *   concurrent marking took 0.5 to 0.9 s of CPU beside the 2.5 s of the filing itself, on two cores
 *   with none to spare; now it runs none. The price is memory: with about 80 MB live, the heap may
 *   reach about 320 MB before it is collected.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--heap-growing-percent=300'];
