/**
 * A typed client for the analytics API, used by `quire analytics views` and importable by users:
 *
 *   const client = createAnalyticsClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'quire_...' });
 *   const page = await client.views('prj_...', { dateFrom: '2026-01-01', limit: 100 });
 */

export interface PageViewCounts {
  human: number;
  ai: number;
  total: number;
}

export interface PageViewsResult {
  totals: PageViewCounts;
  views: Array<{ path: string } & PageViewCounts>;
  hasMore: boolean;
}

export interface PageViewsParameters {
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  offset?: number;
}

export interface IngestEvent {
  path: string;
  timestamp?: string | number;
  userAgent?: string;
  ip?: string;
  referrer?: string;
  accept?: string;
  status?: number;
}

/** A non-2xx answer: the status, and the `{error, details}` body the API sends. */
export class ApiError extends Error {
  readonly status: number;
  readonly details: Array<{ message: string }>;

  constructor(status: number, message: string, details: Array<{ message: string }> = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
  }
}

export interface AnalyticsClient {
  views(projectId: string, parameters?: PageViewsParameters): Promise<PageViewsResult>;
  ingest(projectId: string, events: IngestEvent[]): Promise<{ accepted: number; skipped: number }>;
}

export function createAnalyticsClient(options: {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}): AnalyticsClient {
  const send = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await send(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: reported below with the status.
    }
    if (!response.ok) {
      const error = parsed as { error?: unknown; details?: Array<{ message: string }> } | null;
      const message = typeof error?.error === 'string' ? error.error : `HTTP ${response.status}`;
      throw new ApiError(response.status, message, Array.isArray(error?.details) ? error.details : []);
    }
    return parsed as T;
  }

  return {
    views(projectId, parameters = {}) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(parameters)) {
        if (value !== undefined) query.set(name, String(value));
      }
      const search = query.size > 0 ? `?${query}` : '';
      return request('GET', `/v1/analytics/${encodeURIComponent(projectId)}/views${search}`);
    },
    ingest(projectId, events) {
      return request('POST', `/v1/analytics/${encodeURIComponent(projectId)}/events`, { events });
    },
  };
}
