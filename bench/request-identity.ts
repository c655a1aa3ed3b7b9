// The per-view hashes of drains and log imports (src/analytics/log-import/request-identity.ts) and of
// visitors (src/analytics/visitors/visitor-identity.ts), against the same hashes with their digests
// returned as Buffers, as they were until 2026-11-26:
//   node bench/request-identity.ts [--views 200000] [--rounds 5]
// Prints ns per view for each, and the ratio measured in the same run (median of the rounds). Both
// forms give the same bytes; the run checks it before timing.
import { hash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createRequestIdentifier } from '../src/analytics/log-import/index.ts';
import { hmacKey, hmacSha256 } from '../src/analytics/visitors/visitor-identity.ts';

const { values } = parseArgs({
  options: { views: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '5' } },
});
const views = Number(values.views);
const rounds = Number(values.rounds);

const userAgent =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const requests = Array.from({ length: views }, (_, index) => ({
  method: 'GET',
  target: `/docs/page-${index % 5000}`,
  status: 200,
  occurredAt: Date.UTC(2026, 10, 26) + index * 3,
  userAgent,
  referrer: undefined,
  accept: undefined,
  ip: `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`,
  host: 'docs.example.com',
}));
const named = requests.map((request, index) => ({
  ...request,
  requestId: `vercel:${index.toString(16)}-975a-4cc7`,
}));
const key = hmacKey(randomBytes(32));
const messages = requests.map((request) => `prj_bench0000000001\0${request.ip}\0${request.userAgent}`);

/** The identity of a named request as a Buffer digest. */
const namedBefore = (requestId: string) => hash('sha256', `id\n${requestId}`, 'buffer').subarray(0, 16);
/** HMAC-SHA-256 from the pads with Buffer digests. */
const hmacBefore = (message: string) => {
  const inner = hash('sha256', Buffer.concat([key.inner, Buffer.from(message)]), 'buffer');
  return hash('sha256', Buffer.concat([key.outer, inner]), 'buffer').readUInt32BE(0);
};
const hmacNow = (message: string) => Number.parseInt(hmacSha256(key, message).slice(0, 8), 16);

const [first] = named;
const [firstMessage] = messages;
if (first === undefined || firstMessage === undefined) throw new Error('--views must be at least 1');
if (namedBefore(first.requestId).toString('hex') !== createRequestIdentifier().identityOf(first)())
  throw new Error('the two identities differ');
if (hmacBefore(firstMessage) !== hmacNow(firstMessage)) throw new Error('the two visitor values differ');

const cases: Array<{ label: string; before: () => void; now: () => void }> = [
  {
    label: 'named request (provider request id)',
    before: () => {
      for (const request of named) namedBefore(request.requestId);
    },
    now: () => {
      const identifier = createRequestIdentifier();
      for (const request of named) identifier.identityOf(request)();
    },
  },
  {
    label: 'visitor value (HMAC-SHA-256)',
    before: () => {
      for (const message of messages) hmacBefore(message);
    },
    now: () => {
      for (const message of messages) hmacNow(message);
    },
  },
];

/** ns per view of `run`. */
function timed(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / views;
}
const median = (numbers: number[]) => numbers.sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;

console.log(`request-identity: ${views} views, ${rounds} rounds, Node ${process.version}`);
for (const { label, before, now } of cases) {
  const figures = { before: [] as number[], now: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    figures.before.push(timed(before));
    figures.now.push(timed(now));
  }
  const [b, n] = [median(figures.before), median(figures.now)];
  console.log(
    `  ${label}: Buffer digests ${b.toFixed(0)} ns, string digests ${n.toFixed(0)} ns a view: ratio ${(n / b).toFixed(2)}`,
  );
}
