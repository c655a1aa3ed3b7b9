/**
 * Where the analytics page reads from: the same queries as the public export
 * (`GET /v1/analytics/{projectId}/views`, `/agents`, `/timeseries`; DESIGN.md §1 and §4), called in
 * process rather than over HTTP. Null when this build has no analytics module.
 */
export interface DateRange {
  /** Inclusive. */
  from: Date | null;
  /** Exclusive. */
  to: Date | null;
}

export interface ViewCounts {
  human: number;
  ai: number;
  total: number;
  /** The export's `detail=categories` counts (absent: not asked for, shown as 0). */
  aiReferred?: number;
  aiSearch?: number;
  aiTraining?: number;
  otherBots?: number;
  verifiedAi?: number;
}

export interface PageViewsResult {
  totals: ViewCounts;
  views: (ViewCounts & { path: string })[];
  hasMore: boolean;
}

export interface AgentsResult {
  categories: Record<'human' | 'ai_assistant' | 'ai_search' | 'ai_training' | 'bot', number>;
  agents: { agent: string; category: string; views: number; verifiedViews: number }[];
}

export interface TimeSeriesResult {
  interval: 'hour' | 'day';
  /** `visitors`: the site's unique visitors in the period, where known. */
  points: { start: string; human: number; ai: number; visitors?: number }[];
}

/** Unique visitors (the `/visitors` export): the same shape as views, counting visitors. */
export interface VisitorsResult {
  totals: ViewCounts;
  visitors: (ViewCounts & { path: string })[];
  hasMore: boolean;
}

export interface AnalyticsSource {
  views(
    projectId: string,
    range: DateRange,
    page: { limit: number; offset: number },
  ): Promise<PageViewsResult>;
  agents(projectId: string, range: DateRange): Promise<AgentsResult>;
  timeSeries(projectId: string, range: DateRange, interval: 'hour' | 'day'): Promise<TimeSeriesResult>;
  /** Every page's visitors when `page` is omitted. */
  visitors(
    projectId: string,
    range: DateRange,
    page?: { limit: number; offset: number },
  ): Promise<VisitorsResult>;
  /** Site-wide visitors per bucket (only buckets with visitors). */
  visitorSeries(
    projectId: string,
    range: { from: Date; to: Date },
    interval: 'hour' | 'day',
  ): Promise<{ start: string; visitors: number }[]>;
}
