/** Live log drains (Vercel, Cloudflare Logpush, Netlify): provider batches in, page views out. */
export { maximumDecompressedBytes } from './drain-body.ts';
export { isValidVercelSignature } from './drain-signature.ts';
export { type DrainProvider, type DrainResult, drainProviders, ingestDrain } from './ingest-drain.ts';
