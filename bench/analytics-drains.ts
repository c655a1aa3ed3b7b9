// Drain ingestion for bench/analytics.ts (`--drains`): the same live page views posted through the
// batch endpoint and through each drain endpoint, over HTTP, figures printed side by side.
//
// Payloads follow the providers' documented shapes, with the mix of entries a docs site's logs have:
// - Cloudflare Logpush, dataset http_requests
//   (https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/): gzipped NDJSON,
//   one request per line, timestamps in Unix nanoseconds (Logpush's default), `RequestHeaders` with
//   the logged `accept` (https://developers.cloudflare.com/logs/logpush/logpush-job/custom-fields/),
//   `VerifiedBotCategory` on the AI crawlers. 5,000 records per batch: a Logpush batch holds up to
//   `max_upload_records` (default 100,000) or `max_upload_bytes` (at least 5 MB uncompressed, about
//   8,000 of these records) (https://developers.cloudflare.com/logs/get-started/api-configuration/);
//   a quarter of them assets (scripts, styles, images), which are skipped.
// - Vercel (https://vercel.com/docs/drains/reference/logs): a JSON array of entries, request entries
//   with the `proxy` object; a function request's entry is followed by its runtime line (no `proxy`).
//   Vercel documents no batch size: 500 entries per batch unless `--drain-batch` says otherwise.
// - Netlify (https://docs.netlify.com/manage/monitoring/log-drains/): NDJSON traffic records
//   (`log_type: "traffic"`) and some function log records; no documented batch size: 500 records
//   unless `--drain-batch` says otherwise.
import os from 'node:os';
import { gzipSync } from 'node:zlib';

export interface DrainBenchmarkOptions {
  projectId: string;
  key: string;
  /** Page views per endpoint. */
  views: number;
  /** Entries per Vercel and Netlify request: neither provider documents its batch size. */
  batchEntries: number;
  /** The drains measured (all by default); the batch endpoint always runs before and after them. */
  drains?: ReadonlySet<string>;
  concurrency: number;
  /** Posts `body` to `path` on the server; resolves with the status and the response body. */
  post(
    path: string,
    key: string,
    body: Uint8Array,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: string }>;
  percentile(samples: number[], rank: number): number;
  zipfPage(): number;
  clientAddress(): string;
  /** CPU seconds the server and the PostgreSQL cluster have used so far. */
  cpuSeconds(): Promise<{ server: number; postgres: number }>;
  /** Resolves once maintenance has folded every visitor mark appended so far. */
  visitorMarksFolded(): Promise<void>;
  /**
   * With `--statements`: resets PostgreSQL's statement statistics (`label` null), or prints the
   * statements that took the most time since, for the endpoint `label`.
   */
  statements?(label: string | null): Promise<void>;
}

interface Endpoint {
  label: string;
  path: string;
  headers: Record<string, string>;
  /** The request bodies, and the entries and page views they hold. */
  bodies: Uint8Array[];
  entries: number;
  views: number;
}

export interface Visit {
  path: string;
  at: number;
  userAgent: string;
  address: string;
  /** Cloudflare's category for the verified AI crawlers among the user agents. */
  verifiedBotCategory: string;
  markdown: boolean;
}

const browsers = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
];
const agents: Array<[string, string]> = [
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    'AI Assistant',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
    '',
  ],
  ['Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)', 'AI Search'],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    'AI Crawler',
  ],
];
const assets = ['/assets/app.js', '/assets/app.css', '/images/logo.svg', '/fonts/inter.woff2'];
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)] as T;

interface Measured {
  endpoint: Endpoint;
  viewsPerSecond: number;
  /** Server and PostgreSQL CPU seconds per view. */
  cpuPerView: number;
  /** Load generator CPU seconds per view. */
  generatorPerView: number;
}

/**
 * The batch endpoint, then each drain, then the batch endpoint again; ratios against its mean. With
 * `rounds` above 1 the sequence repeats and the medians of each round's ratios are printed: one
 * round's ratio moves by up to a third with whatever else the machine runs.
 */
export async function drainsBenchmark(options: DrainBenchmarkOptions & { rounds: number }): Promise<void> {
  let serial = 0;
  const visit = (): Visit => {
    const ai = Math.random() < 0.1;
    const [userAgent, verifiedBotCategory] = ai ? pick(agents) : [pick(browsers), ''];
    return {
      path: `/docs/page-${options.zipfPage()}`,
      at: Date.now() - Math.floor(Math.random() * 60_000),
      userAgent,
      address: options.clientAddress(),
      verifiedBotCategory,
      markdown: ai && Math.random() < 0.3,
    };
  };
  const unique = () => {
    serial += 1;
    return serial.toString(16).padStart(16, '0');
  };

  const buildersOf = (views: number): Array<() => Endpoint> => {
    const sized = { ...options, views };
    const drains: Array<[string, () => Endpoint]> = [
      ['cloudflare', () => cloudflareEndpoint(sized, visit, unique)],
      ['vercel', () => vercelEndpoint(sized, visit, unique)],
      ['netlify', () => netlifyEndpoint(sized, visit, unique)],
    ];
    return [
      () => batchEndpoint(sized, visit),
      ...drains.filter(([name]) => options.drains?.has(name) ?? true).map(([, build]) => build),
      () => batchEndpoint(sized, visit),
    ];
  };
  // Every endpoint once first, not counted: the first batch run otherwise paid alone for warming up
  // the server's compiled code, which lowered the baseline every drain is divided by.
  const warmUpViews = Math.min(options.views, 20_000);
  console.log(`drains: warm-up, ${warmUpViews} views per endpoint (not counted)`);
  for (const build of buildersOf(warmUpViews)) await postAll(options, build());
  const builders = buildersOf(options.views);
  const rounds: Measured[][] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    if (options.rounds > 1) console.log(`drains: round ${round} of ${options.rounds}`);
    const results: Measured[] = [];
    // Each endpoint's bodies are built (and encoded) before its clock starts: the load generator
    // shares the cores with the server.
    for (const build of builders) results.push(await measure(options, build()));
    rounds.push(results);
    printRatios(results);
  }
  if (rounds.length > 1) printMedians(rounds, (numbers) => options.percentile(numbers, 50));
}

async function measure(options: DrainBenchmarkOptions, endpoint: Endpoint): Promise<Measured> {
  await options.visitorMarksFolded();
  const cpuBefore = await options.cpuSeconds();
  await options.statements?.(null);
  const generatorBefore = process.cpuUsage();
  const measured = await postAll(options, endpoint);
  const generator = process.cpuUsage(generatorBefore);
  await options.visitorMarksFolded();
  const cpuAfter = await options.cpuSeconds();
  await options.statements?.(endpoint.label);
  const server = cpuAfter.server - cpuBefore.server;
  const postgres = cpuAfter.postgres - cpuBefore.postgres;
  const generatorSeconds = (generator.user + generator.system) / 1e6;
  const megabytes = endpoint.bodies.reduce((sum, body) => sum + body.byteLength, 0) / 1024 / 1024;
  console.log(
    `drains: ${endpoint.label}: ${measured.accepted} views of ${endpoint.entries} entries in ` +
      `${measured.seconds.toFixed(1)} s = ${Math.round(measured.viewsPerSecond)} views/s, ` +
      `${Math.round(endpoint.entries / measured.seconds)} entries/s (${endpoint.bodies.length} requests, ` +
      `${megabytes.toFixed(1)} MB on the wire, request p50 ${measured.p50.toFixed(0)} ms, p95 ` +
      `${measured.p95.toFixed(0)} ms, ${measured.failures} failed)`,
  );
  const perThousand = (seconds: number) => ((seconds / measured.accepted) * 1e6).toFixed(1);
  console.log(
    `  CPU per 1,000 views, visitor marks folded: server ${perThousand(server)} ms, PostgreSQL ` +
      `${perThousand(postgres)} ms, load generator ${perThousand(generatorSeconds)} ms`,
  );
  if (measured.accepted !== endpoint.views) {
    console.log(`drains: ${endpoint.label}: expected ${endpoint.views} views, ${measured.accepted} accepted`);
  }
  return {
    endpoint,
    viewsPerSecond: measured.viewsPerSecond,
    cpuPerView: (server + postgres) / measured.accepted,
    generatorPerView: generatorSeconds / measured.accepted,
  };
}

const isBatch = (result: Measured) => result.endpoint.path.endsWith('/events');
const mean = (numbers: number[]) => numbers.reduce((sum, number) => sum + number, 0) / numbers.length;

/** Each drain against the mean of the batch endpoint's runs around it: views/s and CPU per view. */
function ratiosOf(results: Measured[]): Array<{ label: string; views: number; cpu: number }> {
  const batch = results.filter(isBatch);
  const baseline = mean(batch.map((result) => result.viewsPerSecond));
  const baselineCpu = mean(batch.map((result) => result.cpuPerView));
  return results
    .filter((result) => !isBatch(result))
    .map((result) => ({
      label: result.endpoint.label,
      views: result.viewsPerSecond / baseline,
      cpu: result.cpuPerView / baselineCpu,
    }));
}

function printRatios(results: Measured[]): void {
  const ratios = ratiosOf(results);
  const baseline = mean(results.filter(isBatch).map((result) => result.viewsPerSecond));
  console.log(
    `drains: ratio to the batch endpoint (mean of its two runs, ${Math.round(baseline)} views/s): ` +
      ratios.map((ratio) => `${ratio.label} ${ratio.views.toFixed(2)}`).join(', '),
  );
  // Steadier than views/s, which moves with whatever else the machine runs.
  console.log(
    `drains: server and PostgreSQL CPU per view, relative to the batch endpoint's: ` +
      ratios.map((ratio) => `${ratio.label} ${ratio.cpu.toFixed(2)}`).join(', '),
  );
  // Where the load generator, the server and PostgreSQL share the cores, no endpoint can store views
  // faster than the cores divided by the CPU all three spend per view.
  const cores = os.availableParallelism();
  const ceiling = (result: Measured) => cores / (result.cpuPerView + result.generatorPerView);
  const batchCeiling = mean(results.filter(isBatch).map(ceiling));
  console.log(
    `drains: ceiling on ${cores} cores (the cores over the CPU per view of server, PostgreSQL and load ` +
      `generator): batch endpoint ${Math.round(batchCeiling)} views/s; ` +
      results
        .filter((result) => !isBatch(result))
        .map((result) => {
          const entriesPerView = result.endpoint.entries / result.endpoint.views;
          return (
            `${result.endpoint.label} ${Math.round(ceiling(result))} views/s ` +
            `(${Math.round(ceiling(result) * entriesPerView)} entries/s)`
          );
        })
        .join(', '),
  );
}

function printMedians(rounds: Measured[][], median: (numbers: number[]) => number): void {
  const perRound = rounds.map(ratiosOf);
  const labels = (perRound[0] ?? []).map((ratio) => ratio.label);
  const column = (index: number, key: 'views' | 'cpu') =>
    perRound.map((ratios) => (ratios[index] as { views: number; cpu: number })[key]);
  console.log(
    `drains: medians over ${rounds.length} rounds, ratio of views/s (of CPU per view) to the batch endpoint's: ` +
      labels
        .map(
          (label, index) =>
            `${label} ${median(column(index, 'views')).toFixed(2)} (${median(column(index, 'cpu')).toFixed(2)}); ` +
            `range ${Math.min(...column(index, 'views')).toFixed(2)}-${Math.max(...column(index, 'views')).toFixed(2)}`,
        )
        .join(', '),
  );
}

async function postAll(
  options: DrainBenchmarkOptions,
  endpoint: Endpoint,
): Promise<{
  accepted: number;
  seconds: number;
  viewsPerSecond: number;
  p50: number;
  p95: number;
  failures: number;
}> {
  let accepted = 0;
  let failures = 0;
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (let index = next++; index < endpoint.bodies.length; index = next++) {
        const sentAt = performance.now();
        const response = await options.post(
          endpoint.path,
          options.key,
          endpoint.bodies[index] as Uint8Array,
          endpoint.headers,
        );
        latencies.push(performance.now() - sentAt);
        if (response.status === 200 || response.status === 202)
          accepted += (JSON.parse(response.body) as { accepted: number }).accepted;
        else failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    accepted,
    seconds,
    viewsPerSecond: accepted / seconds,
    p50: options.percentile(latencies, 50),
    p95: options.percentile(latencies, 95),
    failures,
  };
}

/** Splits `views` page views into bodies of about `perBody` entries each. */
function buildBodies(
  views: number,
  perBody: number,
  entriesOf: (visit: Visit | null) => string[],
  visit: () => Visit,
  encode: (entries: string[]) => Uint8Array,
  assetShare: number,
): { bodies: Uint8Array[]; entries: number; views: number } {
  const bodies: Uint8Array[] = [];
  let entries = 0;
  let built = 0;
  let pending: string[] = [];
  while (built < views) {
    const asset = Math.random() < assetShare;
    const lines = entriesOf(asset ? null : visit());
    if (!asset) built += 1;
    pending.push(...lines);
    if (pending.length >= perBody || built === views) {
      entries += pending.length;
      bodies.push(encode(pending));
      pending = [];
    }
  }
  return { bodies, entries, views: built };
}

function batchEndpoint(options: DrainBenchmarkOptions, visit: () => Visit): Endpoint {
  const encoder = new TextEncoder();
  const { bodies, entries, views } = buildBodies(
    options.views,
    1000,
    (next) => {
      const seen = next as Visit;
      return [
        JSON.stringify({
          path: seen.path,
          timestamp: new Date(seen.at).toISOString(),
          userAgent: seen.userAgent,
          ip: seen.address,
          ...(seen.markdown ? { accept: 'text/markdown, text/html;q=0.9' } : {}),
        }),
      ];
    },
    visit,
    (lines) => encoder.encode(`{"events":[${lines.join(',')}]}`),
    0,
  );
  return {
    label: 'batch endpoint (1,000 events per request)',
    path: `/v1/analytics/${options.projectId}/events`,
    headers: { 'content-type': 'application/json' },
    bodies,
    entries,
    views,
  };
}

function cloudflareEndpoint(
  options: DrainBenchmarkOptions,
  visit: () => Visit,
  unique: () => string,
): Endpoint {
  const built = buildBodies(
    options.views,
    5000,
    (seen) => cloudflareEntries(seen, options.clientAddress, unique),
    visit,
    (lines) => gzipSync(`${lines.join('\n')}\n`),
    0.25,
  );
  return {
    label: 'Cloudflare Logpush (5,000 records, gzip NDJSON)',
    path: `/v1/analytics/${options.projectId}/drains/cloudflare`,
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    ...built,
  };
}

/** A Cloudflare request's Logpush record (an asset's when `seen` is null). */
export function cloudflareEntries(
  seen: Visit | null,
  clientAddress: () => string,
  unique: () => string,
): string[] {
  const at = seen?.at ?? Date.now() - Math.floor(Math.random() * 60_000);
  const userAgent = seen?.userAgent ?? pick(browsers);
  return [
    JSON.stringify({
      ClientIP: seen?.address ?? clientAddress(),
      ClientRequestHost: 'docs.example.com',
      ClientRequestMethod: 'GET',
      ClientRequestURI: seen === null ? pick(assets) : seen.path,
      ClientRequestProtocol: 'HTTP/2',
      ClientRequestReferer: seen === null ? 'https://docs.example.com/' : '',
      ClientRequestUserAgent: userAgent,
      ClientCountry: 'us',
      CacheCacheStatus: 'hit',
      EdgeResponseStatus: 200,
      EdgeResponseBytes: 18_432,
      EdgeStartTimestamp: at * 1e6,
      EdgeEndTimestamp: (at + 12) * 1e6,
      RayID: unique(),
      RequestHeaders: { accept: seen?.markdown ? 'text/markdown, text/html;q=0.9' : 'text/html,*/*;q=0.8' },
      VerifiedBotCategory: seen?.verifiedBotCategory ?? '',
    }),
  ];
}

function vercelEndpoint(options: DrainBenchmarkOptions, visit: () => Visit, unique: () => string): Endpoint {
  const encoder = new TextEncoder();
  const built = buildBodies(
    options.views,
    options.batchEntries,
    (seen) => vercelEntries(seen, options.clientAddress, unique),
    visit,
    (lines) => encoder.encode(`[${lines.join(',')}]`),
    0.25,
  );
  return {
    label: `Vercel (${options.batchEntries} entries, JSON array)`,
    path: `/v1/analytics/${options.projectId}/drains/vercel`,
    headers: { 'content-type': 'application/json' },
    ...built,
  };
}

const vercelCommon = {
  deploymentId: 'dpl_233NRGRjVZX1caZrXWtz5g1TAksD',
  projectId: 'gdufoJxB6b9b1fEqr1jUtFkyavUU',
  host: 'docs-abc123.vercel.app',
  environment: 'production',
  level: 'info',
};

/** A Vercel request's entries: its request entry, and a function's runtime line after it; an asset's when `seen` is null. */
export function vercelEntries(
  seen: Visit | null,
  clientAddress: () => string,
  unique: () => string,
): string[] {
  const at = seen?.at ?? Date.now() - Math.floor(Math.random() * 60_000);
  const requestId = `${unique()}-975a-4cc7-9e7a-1eda11539d90`;
  const lambda = seen !== null && Math.random() < 0.2;
  const request = {
    ...vercelCommon,
    id: `1573817250283${unique()}`,
    source: lambda ? 'lambda' : 'static',
    timestamp: at,
    requestId,
    statusCode: 200,
    path: seen?.path ?? pick(assets),
    proxy: {
      timestamp: at,
      method: 'GET',
      scheme: 'https',
      host: 'docs.example.com',
      path: seen?.path ?? pick(assets),
      userAgent: [seen?.userAgent ?? pick(browsers)],
      referer: 'https://www.google.com/',
      statusCode: 200,
      clientIp: seen?.address ?? clientAddress(),
      region: 'sfo1',
      responseByteSize: 18_432,
      vercelCache: lambda ? 'MISS' : 'HIT',
    },
  };
  if (!lambda) return [JSON.stringify(request)];
  const runtime = {
    ...vercelCommon,
    id: `1573817250283${unique()}`,
    source: 'lambda',
    timestamp: at + 15,
    requestId,
    type: 'stdout',
    message: `rendered ${seen?.path} in 12 ms`,
  };
  return [JSON.stringify(request), JSON.stringify(runtime)];
}

function netlifyEndpoint(options: DrainBenchmarkOptions, visit: () => Visit, unique: () => string): Endpoint {
  const encoder = new TextEncoder();
  const built = buildBodies(
    options.views,
    options.batchEntries,
    (seen) => netlifyEntries(seen, options.clientAddress, unique),
    visit,
    (lines) => encoder.encode(`${lines.join('\n')}\n`),
    0.25,
  );
  return {
    label: `Netlify (${options.batchEntries} records, NDJSON)`,
    path: `/v1/analytics/${options.projectId}/drains/netlify`,
    headers: { 'content-type': 'application/x-ndjson' },
    ...built,
  };
}

/** A Netlify request's records: its traffic record, and sometimes a function's log record; an asset's when `seen` is null. */
export function netlifyEntries(
  seen: Visit | null,
  clientAddress: () => string,
  unique: () => string,
): string[] {
  const at = seen?.at ?? Date.now() - Math.floor(Math.random() * 60_000);
  const requestId = `01HZXKJ3Q5${unique()}`;
  const traffic = JSON.stringify({
    log_type: 'traffic',
    request_id: requestId,
    method: 'GET',
    url: `https://docs.example.com${seen?.path ?? pick(assets)}`,
    status_code: 200,
    timestamp: new Date(at).toISOString(),
    client_ip: seen?.address ?? clientAddress(),
    user_agent: seen?.userAgent ?? pick(browsers),
    referrer: 'https://www.google.com/',
    content_type: seen === null ? 'application/javascript' : 'text/html',
    country: 'US',
    duration: 12,
    request_size: 512,
    response_size: 18_432,
    site_id: 'b1a2c3d4-e5f6-4000-8000-000000000000',
    deploy_id: '64f0c0ffee0000000000abcd',
  });
  if (seen === null || Math.random() >= 0.1) return [traffic];
  const functionLog = JSON.stringify({
    log_type: 'functions',
    request_id: requestId,
    message: 'served from the edge cache',
    timestamp: new Date(at + 5).toISOString(),
  });
  return [traffic, functionLog];
}
