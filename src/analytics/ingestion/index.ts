/** Page views in: request fields to a stored view, and the group-committing writer with its rollups. */
export { type AnalyticsServices, createAnalyticsServices } from './analytics-services.ts';
export { type IncomingEvent, type IngestResult, ingestEvents } from './ingest-events.ts';
export { addToRollups } from './insert-page-views.ts';
export { maximumRawPathLength } from './normalize-path.ts';
export type { StoredPageView } from './page-view.ts';
export {
  maximumHeaderLength,
  maximumUserAgentLength,
  type PipelineDependencies,
  preparePageView,
} from './page-view.ts';
export { createPageViewWriter, type PageViewWriter } from './page-view-writer.ts';
export {
  containsControlCharacter,
  maximumSignalHeaderLength,
  type SignalHeaderName,
  type SignalHeaders,
  signalHeaderNames,
} from './request-signals.ts';
export { noProfiledViews, type RollupSums, sumRollups } from './rollup-arithmetic.ts';
