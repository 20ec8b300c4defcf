// The tracker's public types live in the client package (src/client/tracker-api.ts), whose
// browser part types `window.svc` with them: one source for the script and the library.
export type { SvcApi, SvcInitOptions, SvcStub } from '../../src/client/tracker-api.js'
