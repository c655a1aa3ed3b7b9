// Reading a drained body into records (src/analytics/drains/drain-body.ts: small bodies whole, large
// ones record by record), against the baseline of decoding every body into one string first, on
// bodies shaped like the drains benchmark's:
//   node bench/drain-body.ts [--rounds 2000]
// Prints µs per body for each, and what decoding alone costs at sizes around 128 KiB: V8 puts every
// string over 128 KiB in freshly mapped pages, whose page faults are what a whole-body string costs
// on a machine where they are dear.
import { parseArgs, promisify } from 'node:util';
import { gunzip, gzipSync } from 'node:zlib';
import { bodyRecords, decompressBody, maximumDecompressedBytes } from '../src/analytics/drains/drain-body.ts';
import { gunzipChunkBytes } from '../src/analytics/log-import/index.ts';
import { cloudflareEntries, netlifyEntries, type Visit, vercelEntries } from './analytics-drains.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '2000' } } });
const rounds = Number(values.rounds);

let serial = 0;
const unique = () => {
  serial += 1;
  return serial.toString(16).padStart(16, '0');
};
const visit = (): Visit => ({
  path: `/docs/page-${serial % 5000}`,
  at: Date.now() - (serial % 60_000),
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  address: `10.0.${(serial >> 8) & 255}.${serial & 255}`,
  verifiedBotCategory: '',
  markdown: false,
});
const clientAddress = () => '10.1.2.3';
/** About `count` entries of page views, a quarter of them assets' as in the drains benchmark. */
const entries = (count: number, of: typeof vercelEntries) => {
  const lines: string[] = [];
  while (lines.length < count) lines.push(...of(serial % 4 === 0 ? null : visit(), clientAddress, unique));
  return lines;
};

const bodies = [
  {
    label: 'Vercel, 500 entries (JSON array)',
    body: Buffer.from(`[${entries(500, vercelEntries).join(',')}]`),
  },
  {
    label: 'Netlify, 500 records (NDJSON)',
    body: Buffer.from(`${entries(500, netlifyEntries).join('\n')}\n`),
  },
  {
    label: 'Vercel, 50 entries (JSON array)',
    body: Buffer.from(`[${entries(50, vercelEntries).join(',')}]`),
  },
  { label: 'Netlify, 50 records (NDJSON)', body: Buffer.from(`${entries(50, netlifyEntries).join('\n')}\n`) },
];

/** The baseline: the whole body decoded into one string, then parsed as an array or line by line. */
function oneString(body: Buffer): unknown[] {
  const text = body.toString('utf8');
  return text.startsWith('[')
    ? (JSON.parse(text) as unknown[])
    : text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as unknown);
}

/** µs per call of `read`, after a warm-up. */
function timed(read: () => unknown): number {
  for (let round = 0; round < Math.min(rounds, 200); round += 1) read();
  const start = process.hrtime.bigint();
  for (let round = 0; round < rounds; round += 1) read();
  return Number(process.hrtime.bigint() - start) / rounds / 1000;
}

for (const { label, body } of bodies) {
  const records = bodyRecords([body]);
  if (JSON.stringify(records) !== JSON.stringify(oneString(body)))
    throw new Error(`${label}: records differ`);
  const whole = timed(() => oneString(body));
  const byRecord = timed(() => bodyRecords([body]));
  console.log(
    `${label}, ${Math.round(body.length / 1024)} KiB: one string ${whole.toFixed(0)} µs, ` +
      `bodyRecords ${byRecord.toFixed(0)} µs (${(byRecord / whole).toFixed(2)} of the baseline), ` +
      `${((byRecord - whole) / records.length).toFixed(2)} µs per record against it`,
  );
}

// A Logpush batch: inflated in one buffer and read as one string before, now inflated into chunks
// and read line by line. zlib inflates on the thread pool, so this counts the process's CPU time.
const logpush = gzipSync(`${entries(5000, cloudflareEntries).join('\n')}\n`);
const gunzipAsync = promisify(gunzip);
async function cpuTimed(read: () => Promise<unknown>): Promise<number> {
  const count = Math.max(20, Math.round(rounds / 20));
  for (let round = 0; round < count; round += 1) await read();
  const start = process.cpuUsage();
  for (let round = 0; round < count; round += 1) await read();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}
const inflatedWhole = await cpuTimed(async () =>
  oneString(
    await gunzipAsync(logpush, { chunkSize: gunzipChunkBytes, maxOutputLength: maximumDecompressedBytes }),
  ),
);
const inflatedInChunks = await cpuTimed(async () => bodyRecords(await decompressBody(logpush)));
console.log(
  `Cloudflare, 5,000 records (${Math.round(logpush.length / 1024)} KiB gzipped): one buffer and one string ` +
    `${inflatedWhole.toFixed(0)} µs of CPU, decompressBody and bodyRecords ${inflatedInChunks.toFixed(0)} µs ` +
    `(${(inflatedInChunks / inflatedWhole).toFixed(2)} of the baseline)`,
);

for (const kibibytes of [64, 120, 136, 256, 512]) {
  const body = Buffer.alloc(kibibytes * 1024, 'a');
  const microseconds = timed(() => body.toString('latin1'));
  console.log(
    `decoding ${kibibytes} KiB into one string: ${microseconds.toFixed(0)} µs, ` +
      `${((kibibytes * 1024) / microseconds).toFixed(0)} MB/s`,
  );
}
