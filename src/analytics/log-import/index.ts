/** Imports access logs (combined or JSON lines) as page views. */
export { type ImportSummary, importLog, type LogFormat, logFormats } from './log-import.ts';
