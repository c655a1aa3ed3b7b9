/** Imports access logs (combined, vhost_combined, JSON lines or arrays; gzip or not) as page views. */
export { parseDrainRecord } from './json-log.ts';
export { type ImportSummary, importLog, type LogFormat, logFormats } from './log-import.ts';
export { gunzipChunkBytes } from './log-records.ts';
export type { LoggedRequest, LogLineResult } from './logged-request.ts';
export { viewOfLoggedRequest } from './logged-view.ts';
export { verifyLoggedView } from './logged-view-verification.ts';
export { createRequestIdentifier } from './request-identity.ts';
