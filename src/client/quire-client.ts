/**
 * A typed client for the Quire API, used by the CLI and importable by anyone:
 *
 *   const quire = createQuireClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.QUIRE_API_KEY });
 *   const job = await quire.createJob(projectId, 'Document the --dry-run flag');
 *   const done = await quire.waitForJob(projectId, job.id, { timeoutMilliseconds: 600_000 });
 *   console.log(done.status, done.prLink);
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentJobResource } from '../agent-jobs/agent-job.ts';
import type { JobStatus } from '../agent-jobs/job-status.ts';
import type { IncomingEvent, IngestResult } from '../analytics/ingestion/index.ts';
import type { CategoryDetail, PageViewsExport, VisitorsExport } from '../analytics/reports/index.ts';
import type { AutomationResource } from '../automations/automation.ts';
import type { AutomationInput, AutomationPatch } from '../automations/automation-service.ts';

export type {
  AgentJobResource,
  AutomationInput,
  AutomationPatch,
  AutomationResource,
  CategoryDetail,
  IncomingEvent,
  IngestResult,
  PageViewsExport,
  VisitorsExport,
};

/** `GET|PATCH /v1/projects/{projectId}/budgets`. */
export interface ProjectBudgets {
  monthlyBudgetUsd: number | null;
  maxTokensPerJob: number | null;
  spentThisMonthUsd: number;
}

export interface PageViewsQuery {
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  offset?: number;
  /** `categories` adds aiReferred, aiSearch, aiTraining, otherBots and verifiedAi to totals and rows. */
  detail?: 'categories';
}

export interface JobEventResource {
  id: number;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/** A non-2xx answer: the status and the `{error, details?}` body. */
export class QuireApiError extends Error {
  readonly status: number;
  readonly details: { message: string }[];
  readonly retryAfterSeconds: number | null;

  constructor(
    status: number,
    body: { error?: string; details?: { message: string }[] },
    retryAfter: string | null,
  ) {
    super(body.error ?? `HTTP ${status}`);
    this.name = 'QuireApiError';
    this.status = status;
    this.details = body.details ?? [];
    this.retryAfterSeconds = retryAfter === null ? null : Number(retryAfter);
  }
}

export interface QuireClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}

export interface WaitOptions {
  timeoutMilliseconds?: number;
  intervalMilliseconds?: number;
  signal?: AbortSignal;
  /** Called with each new event of the job while waiting (progress). */
  onEvent?: (event: JobEventResource) => void;
}

export type QuireClient = ReturnType<typeof createQuireClient>;

export function createQuireClient(options: QuireClientOptions) {
  const baseUrl = options.baseUrl.replace(/(?<!\/)\/+$/, '');
  const fetchImplementation = options.fetch ?? fetch;

  async function request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const response = await fetchImplementation(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = { error: text.slice(0, 200) };
    }
    if (!response.ok)
      throw new QuireApiError(
        response.status,
        (parsed ?? {}) as { error?: string },
        response.headers.get('retry-after'),
      );
    return parsed as T;
  }

  const job = (projectId: string, id = '') =>
    `/v2/agent/${encodeURIComponent(projectId)}/job${id ? `/${encodeURIComponent(id)}` : ''}`;

  const automation = (projectId: string, id = '') =>
    `/v2/agent/${encodeURIComponent(projectId)}/automations${id ? `/${encodeURIComponent(id)}` : ''}`;

  const budgets = (projectId: string) => `/v1/projects/${encodeURIComponent(projectId)}/budgets`;

  const client = {
    /** The project's monthly budget, token budget per job, and this month's estimated cost. */
    getBudgets(projectId: string) {
      return request<ProjectBudgets>('GET', budgets(projectId));
    },
    /** Sets the budgets given (null removes one) and returns them all. */
    updateBudgets(
      projectId: string,
      patch: Partial<Pick<ProjectBudgets, 'monthlyBudgetUsd' | 'maxTokensPerJob'>>,
    ) {
      return request<ProjectBudgets>('PATCH', budgets(projectId), patch);
    },
    createJob(projectId: string, prompt: string, requestOptions: { idempotencyKey?: string } = {}) {
      const headers: Record<string, string> = requestOptions.idempotencyKey
        ? { 'idempotency-key': requestOptions.idempotencyKey }
        : {};
      return request<AgentJobResource>('POST', job(projectId), { prompt }, headers);
    },
    getJob(projectId: string, id: string) {
      return request<AgentJobResource>('GET', job(projectId, id));
    },
    sendMessage(
      projectId: string,
      id: string,
      prompt: string,
      requestOptions: { idempotencyKey?: string } = {},
    ) {
      const headers: Record<string, string> = requestOptions.idempotencyKey
        ? { 'idempotency-key': requestOptions.idempotencyKey }
        : {};
      return request<AgentJobResource>('POST', `${job(projectId, id)}/message`, { prompt }, headers);
    },
    archiveJob(projectId: string, id: string) {
      return request<AgentJobResource>('POST', `${job(projectId, id)}/archive`);
    },
    listJobs(projectId: string, query: { status?: JobStatus; limit?: number; cursor?: string } = {}) {
      const search = new URLSearchParams();
      if (query.status) search.set('status', query.status);
      if (query.limit) search.set('limit', String(query.limit));
      if (query.cursor) search.set('cursor', query.cursor);
      const suffix = search.size > 0 ? `?${search}` : '';
      return request<{ jobs: AgentJobResource[]; nextCursor: string | null }>(
        'GET',
        `/v2/agent/${encodeURIComponent(projectId)}/jobs${suffix}`,
      );
    },
    listEvents(projectId: string, id: string, query: { after?: number; limit?: number } = {}) {
      const search = new URLSearchParams({
        after: String(query.after ?? 0),
        limit: String(query.limit ?? 100),
      });
      return request<{ events: JobEventResource[]; hasMore: boolean }>(
        'GET',
        `${job(projectId, id)}/events?${search}`,
      );
    },
    listAutomations(projectId: string) {
      return request<{ automations: AutomationResource[] }>('GET', automation(projectId));
    },
    getAutomation(projectId: string, id: string) {
      return request<AutomationResource>('GET', automation(projectId, id));
    },
    createAutomation(projectId: string, input: AutomationInput) {
      return request<AutomationResource>('POST', automation(projectId), input);
    },
    updateAutomation(projectId: string, id: string, patch: AutomationPatch) {
      return request<AutomationResource>('PATCH', automation(projectId, id), patch);
    },
    deleteAutomation(projectId: string, id: string) {
      return request<null>('DELETE', automation(projectId, id));
    },
    /** Fires the automation now; resolves to the job it started or continued. */
    triggerAutomation(projectId: string, id: string, requestOptions: { idempotencyKey?: string } = {}) {
      const headers: Record<string, string> = requestOptions.idempotencyKey
        ? { 'idempotency-key': requestOptions.idempotencyKey }
        : {};
      return request<AgentJobResource>('POST', `${automation(projectId, id)}/trigger`, undefined, headers);
    },
    /** The jobs the automation started or continued, newest first. */
    automationJobs(projectId: string, id: string) {
      return request<{ jobs: AgentJobResource[] }>('GET', `${automation(projectId, id)}/jobs`);
    },
    /** The page-view export: totals and one page of per-page counts (DESIGN.md §1). */
    pageViews(projectId: string, query: PageViewsQuery = {}) {
      return request<
        PageViewsExport & { totals: Partial<CategoryDetail>; views: Array<Partial<CategoryDetail>> }
      >('GET', exportPath(projectId, 'views', query));
    },
    /** Unique visitors, with the parameters and pagination of the page-view export. */
    visitors(projectId: string, query: Omit<PageViewsQuery, 'detail'> = {}) {
      return request<VisitorsExport>('GET', exportPath(projectId, 'visitors', query));
    },
    /** Sends up to 1,000 page views; resolves once they are committed. */
    ingestEvents(projectId: string, events: IncomingEvent[]) {
      return request<IngestResult>('POST', `/v1/analytics/${encodeURIComponent(projectId)}/events`, {
        events,
      });
    },
    /** Polls until the job is completed, archived or failed (the spec's client rule). */
    async waitForJob(projectId: string, id: string, wait: WaitOptions = {}): Promise<AgentJobResource> {
      const deadline = Date.now() + (wait.timeoutMilliseconds ?? 30 * 60 * 1000);
      let after = 0;
      for (;;) {
        const current = await client.getJob(projectId, id);
        // Events after the job read: everything committed with its status is seen before returning.
        if (wait.onEvent) {
          for (;;) {
            const page = await client.listEvents(projectId, id, { after, limit: 500 });
            for (const event of page.events) {
              wait.onEvent(event);
              after = event.id;
            }
            if (!page.hasMore) break;
          }
        }
        if (current.status !== 'active') return current;
        if (Date.now() > deadline) throw new Error(`Job ${id} is still active after the wait timeout`);
        await sleep(wait.intervalMilliseconds ?? 1000, undefined, wait.signal ? { signal: wait.signal } : {});
      }
    },
  };
  return client;
}

function exportPath(projectId: string, name: 'views' | 'visitors', query: PageViewsQuery): string {
  const search = new URLSearchParams();
  for (const [parameter, value] of Object.entries(query)) {
    if (value !== undefined) search.set(parameter, String(value));
  }
  return `/v1/analytics/${encodeURIComponent(projectId)}/${name}${search.size > 0 ? `?${search}` : ''}`;
}
