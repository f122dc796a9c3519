/**
 * The V8 flags the server runs with; `npm start` (server/package.json) passes the same, and a test
 * checks that the two agree.
 *
 * A larger young generation: a request's short-lived objects (parsed DICOM headers, query results)
 * die there instead of being promoted, so the old generation fills slowly and full collections stay
 * rare. With the default, storing a 500-instance study ran about thirty full collections.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
