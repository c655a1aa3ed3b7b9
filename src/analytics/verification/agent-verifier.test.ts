import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { loadUserAgentCorpus } from '../../../test/user-agent-corpus.ts';
import { startWebBotAuthDouble } from '../../../test/web-bot-auth-double.ts';
import type { AiAgentTable } from '../classification/ai-agent-table-builder.ts';
import { createClassifier } from '../classification/classify.ts';
import aiAgentTable from '../classification/data/ai-agents.json' with { type: 'json' };
import { createAgentVerifier, type VerificationRequest } from './agent-verifier.ts';
import { createIpRangeMatcher, type IpRangeSource, prefixesFromPublishedList } from './ip-ranges.ts';
import { publishedIpRanges } from './published-ip-ranges.ts';
import type { ReverseDnsResolver } from './reverse-dns.ts';
import { createHttpKeyDirectory } from './web-bot-auth.ts';

const ipRanges = {
  sources: [
    {
      agents: ['GPTBot'],
      operator: 'OpenAI',
      url: 'https://openai.com/gptbot.json',
      retrieved: '2026-11-01',
      prefixes: ['192.0.2.0/24', '2001:db8:1::/48'],
    },
    { agents: ['PerplexityBot'], operator: 'Perplexity', url: 'https://x', retrieved: null, prefixes: [] },
  ],
};

/** A fake resolver: PTR and forward records, and a count of queries. */
function fakeResolver(records: { ptr: Record<string, string[]>; forward: Record<string, string[]> }) {
  const resolver: ReverseDnsResolver & { queries: number } = {
    queries: 0,
    async reverse(address) {
      resolver.queries += 1;
      const names = records.ptr[address];
      if (names === undefined) throw Object.assign(new Error('queryPtr ENOTFOUND'), { code: 'ENOTFOUND' });
      return names;
    },
    async lookup(hostname) {
      resolver.queries += 1;
      return records.forward[hostname] ?? [];
    },
  };
  return resolver;
}

const request = (overrides: Partial<VerificationRequest>): VerificationRequest => ({
  agent: 'GPTBot',
  ip: undefined,
  method: 'GET',
  host: 'docs.example.com',
  target: '/intro',
  headers: {},
  ...overrides,
});

describe('agent verification', () => {
  const resolver = fakeResolver({
    ptr: {
      '66.249.66.1': ['crawl-66-249-66-1.googlebot.com.'],
      '203.0.113.9': ['crawl-203-0-113-9.googlebot.com'],
      '198.51.100.7': ['host.example.net'],
      '2001:db8:ffff::1': ['crawl.googlebot.com'],
      // Every Compute Engine address has a forward-confirmed name like this one.
      '34.120.0.7': ['7.0.120.34.bc.googleusercontent.com.'],
      '66.249.83.5': ['google-proxy-66-249-83-5.google.com'],
    },
    forward: {
      'google-proxy-66-249-83-5.google.com': ['66.249.83.5'],
      '7.0.120.34.bc.googleusercontent.com': ['34.120.0.7'],
      'crawl-66-249-66-1.googlebot.com': ['66.249.66.1'],
      'crawl-203-0-113-9.googlebot.com': ['192.0.2.200'],
      'crawl.googlebot.com': ['2001:0db8:ffff:0000:0000:0000:0000:0001'],
    },
  });
  const verifier = createAgentVerifier({
    ipRanges,
    resolver,
    keyDirectory: { keys: async () => [] },
  });

  it('checks addresses against the published ranges, IPv4, IPv6 and IPv4-mapped', async () => {
    assert.equal(await verifier.verify(request({ ip: '192.0.2.17' })), true);
    assert.equal(await verifier.verify(request({ ip: '::ffff:192.0.2.17' })), true);
    assert.equal(await verifier.verify(request({ ip: '2001:db8:1:2::5' })), true);
    assert.equal(await verifier.verify(request({ ip: '198.51.100.1' })), false, 'a spoofed GPTBot');
    assert.equal(await verifier.verify(request({ ip: 'not an address' })), false);
    assert.equal(await verifier.verify(request({ ip: undefined })), false);
    assert.equal(await verifier.verify(request({ agent: null, ip: '192.0.2.17' })), false);
  });

  it('forward-confirms reverse DNS where the operator documents it, and caches the answer', async () => {
    const googlebot = (ip: string) => request({ agent: 'Googlebot', ip });
    assert.equal(await verifier.verify(googlebot('66.249.66.1')), true);
    const queries = resolver.queries;
    assert.equal(await verifier.verify(googlebot('66.249.66.1')), true);
    assert.equal(resolver.queries, queries, 'answered from the cache');
    assert.equal(await verifier.verify(googlebot('2001:db8:ffff::1')), true, 'IPv6, another spelling');
    assert.equal(await verifier.verify(googlebot('203.0.113.9')), false, 'the name does not resolve back');
    assert.equal(await verifier.verify(googlebot('198.51.100.7')), false, "not the operator's domain");
    assert.equal(await verifier.verify(googlebot('198.51.100.99')), false, 'no PTR record');
    assert.equal(
      await verifier.verify(googlebot('34.120.0.7')),
      false,
      "a rented Google Cloud machine's own name is not Google's crawler",
    );
    // Google's own user-triggered agents fetch from google-proxy names.
    assert.equal(await verifier.verify(request({ agent: 'Google-Agent', ip: '66.249.83.5' })), true);
    assert.equal(await verifier.verify(request({ agent: 'Google-GeminiNotebook', ip: '34.120.0.7' })), false);
    // An agent whose operator documents neither is never verified by its address.
    assert.equal(await verifier.verify(request({ agent: 'curl', ip: '66.249.66.1' })), false);
    // An agent whose published list is still empty falls through (PerplexityBot has no DNS rule).
    assert.equal(await verifier.verify(request({ agent: 'PerplexityBot', ip: '192.0.2.1' })), false);
  });

  it('asks reverse DNS a few addresses at a time; one turned away is asked again later', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const stalling: ReverseDnsResolver = {
      async reverse(address) {
        await answered;
        return address === '66.249.66.1' ? ['crawl-66-249-66-1.googlebot.com'] : [];
      },
      lookup: async () => ['66.249.66.1'],
    };
    const limited = createAgentVerifier({
      ipRanges,
      resolver: stalling,
      keyDirectory: { keys: async () => [] },
      maximumLookups: 2,
    });
    const googlebot = (ip: string) => request({ agent: 'Googlebot', ip });
    const first = limited.verify(googlebot('198.51.100.1'));
    const second = limited.verify(googlebot('198.51.100.2'));
    assert.equal(limited.verify(googlebot('66.249.66.1')), false, 'a third lookup at once');
    answer();
    assert.deepEqual(await Promise.all([first, second]), [false, false]);
    assert.equal(await limited.verify(googlebot('66.249.66.1')), true, 'asked once the others are done');
  });

  it('verifies Web Bot Auth signatures against the key directory of the Signature-Agent', async () => {
    const agent = await startWebBotAuthDouble();
    const signed = createAgentVerifier({
      ipRanges,
      resolver,
      keyDirectory: createHttpKeyDirectory({ urlOf: () => agent.url, allowPrivateAddresses: true }),
    });
    const url = 'https://docs.example.com/intro';
    const headers = await agent.sign({ method: 'GET', url, signatureAgent: '"https://agent.example"' });
    const signedRequest = request({ agent: 'agent.example', headers });
    assert.equal(await signed.verify(signedRequest), true);
    assert.equal(await signed.verify(signedRequest), true);
    assert.equal(agent.fetches, 1, 'the directory is cached');
    // Anything the signature covers, changed: the authority, the signer; or a forged signature.
    assert.equal(await signed.verify({ ...signedRequest, host: 'other.example.com' }), false);
    assert.equal(
      await signed.verify({
        ...signedRequest,
        headers: { ...headers, 'signature-agent': '"https://agent.example.org"' },
      }),
      false,
    );
    assert.equal(
      await signed.verify({
        ...signedRequest,
        headers: { ...headers, signature: `sig1=:${'A'.repeat(86)}==:` },
      }),
      false,
    );
    assert.equal(await signed.verify({ ...signedRequest, host: undefined }), false);
    // A valid signature proves its signer only: a user agent that claims GPTBot, signed with the
    // signer's own keys, is verified by GPTBot's addresses or not at all.
    assert.equal(await signed.verify({ ...signedRequest, agent: 'GPTBot', ip: '198.51.100.9' }), false);
    assert.equal(await signed.verify({ ...signedRequest, agent: 'GPTBot', ip: '192.0.2.9' }), true);
    // Expired.
    const old = new Date(Date.now() - 3_600_000);
    const expired = await agent.sign({
      method: 'GET',
      url,
      signatureAgent: '"https://agent.example"',
      created: old,
      expires: new Date(old.getTime() + 60_000),
    });
    assert.equal(await signed.verify(request({ agent: 'agent.example', headers: expired })), false);
    // A directory that no longer publishes the key.
    agent.publishKeys = false;
    const fresh = createAgentVerifier({
      ipRanges,
      resolver,
      keyDirectory: createHttpKeyDirectory({ urlOf: () => agent.url, allowPrivateAddresses: true }),
    });
    assert.equal(await fresh.verify(signedRequest), false);
    // An unreachable directory.
    const unreachable = createAgentVerifier({
      ipRanges,
      resolver,
      keyDirectory: createHttpKeyDirectory({
        urlOf: () => 'http://127.0.0.1:1',
        timeoutMilliseconds: 500,
        allowPrivateAddresses: true,
      }),
    });
    assert.equal(await unreachable.verify(signedRequest), false);
    // Any visitor names the signer: a directory on a loopback or private address is never fetched.
    const fetches = agent.fetches;
    const guarded = createAgentVerifier({
      ipRanges,
      resolver,
      keyDirectory: createHttpKeyDirectory({ urlOf: () => agent.url }),
    });
    assert.equal(await guarded.verify(signedRequest), false);
    assert.equal(agent.fetches, fetches);
  });

  it("counts Cloudflare's verified bot category when it agrees with the classified kind", async () => {
    // GPTBot from an address outside its (test) ranges: only Cloudflare's verdict can verify it.
    const gptbot = (verifiedBotCategory: string | undefined, category = 'ai_training' as const) =>
      request({ agent: 'GPTBot', ip: '198.51.100.1', category, verifiedBotCategory });
    assert.equal(verifier.canVerify(gptbot('AI Crawler')), true);
    assert.equal(await verifier.verify(gptbot('AI Crawler')), true);
    assert.equal(await verifier.verify(gptbot('ai search')), true, 'any AI kind, any case');
    assert.equal(await verifier.verify(gptbot('Search Engine Crawler')), false, 'a disagreement');
    assert.equal(await verifier.verify(gptbot('')), false, 'not verified by Cloudflare');
    assert.equal(await verifier.verify(gptbot(undefined)), false);
    const googlebot = request({
      agent: 'Googlebot',
      ip: undefined,
      category: 'bot',
      verifiedBotCategory: 'Search Engine Crawler',
    });
    assert.equal(await verifier.verify(googlebot), true, 'a plain bot of a non-AI category');
    assert.equal(await verifier.verify({ ...googlebot, verifiedBotCategory: 'AI Crawler' }), false);
    // A person stays unverified whatever the CDN says; so does a view whose category is not given.
    assert.equal(
      verifier.canVerify(request({ agent: null, category: 'human', verifiedBotCategory: 'AI Assistant' })),
      false,
    );
    assert.equal(
      await verifier.verify(request({ agent: 'GPTBot', verifiedBotCategory: 'AI Crawler' })),
      false,
    );
  });

  it('tells at once which claims can be verified, so ingestion checks no others', () => {
    assert.equal(verifier.canVerify(request({ ip: '198.51.100.1' })), true, 'GPTBot has published ranges');
    assert.equal(verifier.canVerify(request({ ip: undefined })), false, 'no address to check');
    assert.equal(
      verifier.canVerify(request({ agent: 'Googlebot', ip: '198.51.100.1' })),
      true,
      'reverse DNS',
    );
    assert.equal(verifier.canVerify(request({ agent: 'curl', ip: '198.51.100.1' })), false);
    assert.equal(
      verifier.canVerify(request({ agent: 'PerplexityBot', ip: '192.0.2.1' })),
      false,
      'empty list',
    );
    const signed = {
      signature: 'sig1=:AA==:',
      'signature-input': 'sig1=()',
      'signature-agent': '"https://a.example"',
    };
    assert.equal(verifier.canVerify(request({ agent: 'a.example', headers: signed })), true);
    assert.equal(
      verifier.canVerify(request({ agent: 'a.example', headers: signed, host: undefined })),
      false,
    );
    assert.equal(
      verifier.canVerify(request({ agent: 'GPTBot', headers: signed, ip: undefined })),
      false,
      "another signer's signature cannot verify GPTBot",
    );
  });

  it('falls back to the address when a signature does not check, and answers from a range at once', async () => {
    const agent = await startWebBotAuthDouble();
    const ranges = createIpRangeMatcher(ipRanges);
    let rangeChecks = 0;
    const counted = createAgentVerifier({
      ipRanges: {
        covers: (name) => ranges.covers(name),
        contains(name, address) {
          rangeChecks += 1;
          return ranges.contains(name, address);
        },
      },
      resolver,
      keyDirectory: createHttpKeyDirectory({ urlOf: () => agent.url, allowPrivateAddresses: true }),
    });
    const old = new Date(Date.now() - 3_600_000);
    const expired = await agent.sign({
      method: 'GET',
      url: 'https://docs.example.com/intro',
      signatureAgent: '"https://agent.example"',
      created: old,
      expires: new Date(old.getTime() + 60_000),
    });
    // A GPTBot whose signature expired (a log imported later) is verified by its published address.
    assert.equal(await counted.verify(request({ headers: expired, ip: '192.0.2.9' })), true);
    assert.equal(await counted.verify(request({ headers: expired, ip: '198.51.100.9' })), false);
    // A published range answers at once, without a promise.
    assert.equal(counted.verify(request({ ip: '192.0.2.9' })), true);
    assert.equal(rangeChecks, 3);
  });

  it('reads operator lists in their documented shape and refuses anything else', () => {
    // The shape of https://developers.google.com/search/apis/ipranges/googlebot.json.
    assert.deepEqual(
      prefixesFromPublishedList({
        creationTime: '2026-11-01T00:00:00.000000',
        prefixes: [{ ipv6Prefix: '2001:4860:4801:10::/64' }, { ipv4Prefix: '66.249.64.0/27' }],
      }),
      ['2001:4860:4801:10::/64', '66.249.64.0/27'],
    );
    assert.throws(() => prefixesFromPublishedList({}), /prefixes/);
    assert.throws(() => prefixesFromPublishedList({ prefixes: [{ ipv4Prefix: '1.2.3.4/33' }] }), /CIDR/);
    assert.equal(createIpRangeMatcher(ipRanges).covers('gptbot'), true);
    assert.equal(createIpRangeMatcher(ipRanges).covers('PerplexityBot'), false);
  });

  it('falls back to reverse DNS for an address outside the published ranges', async () => {
    const fallback = createAgentVerifier({
      ipRanges: {
        sources: [{ ...(ipRanges.sources[0] as IpRangeSource), agents: ['Googlebot'] }],
      },
      resolver,
      keyDirectory: { keys: async () => [] },
    });
    const googlebot = (ip: string) => request({ agent: 'Googlebot', ip });
    assert.equal(await fallback.verify(googlebot('192.0.2.9')), true, 'in the ranges');
    assert.equal(
      await fallback.verify(googlebot('66.249.66.1')),
      true,
      'a range added since: its PTR confirms',
    );
    assert.equal(await fallback.verify(googlebot('198.51.100.7')), false, "not the operator's domain");
  });
});

describe('the shipped address ranges', () => {
  it('cover agents under the names the classifier gives real user agents', () => {
    // Verification looks ranges up by the classified agent's name: a name no user agent gets would
    // verify nothing. Real user agents: the labelled corpus (crawler-user-agents, operators' docs).
    const classifier = createClassifier();
    const named = new Set(
      loadUserAgentCorpus(aiAgentTable as AiAgentTable).map(
        (entry) =>
          classifier.classify({ userAgent: entry.userAgent, markdown: false }).agent?.toLowerCase() ?? '',
      ),
    );
    const tableTokens = new Set(aiAgentTable.agents.map((agent) => agent.token.toLowerCase()));
    for (const source of publishedIpRanges.sources) {
      for (const agent of source.agents) {
        assert.ok(named.has(agent.toLowerCase()) || tableTokens.has(agent.toLowerCase()), agent);
      }
    }
  });

  const verifier = createAgentVerifier({
    ipRanges: publishedIpRanges,
    resolver: fakeResolver({ ptr: {}, forward: {} }),
    keyDirectory: { keys: async () => [] },
  });

  it('name their source and date, and verify every agent inside its list only', async () => {
    assert.ok(publishedIpRanges.sources.length >= 10);
    for (const source of publishedIpRanges.sources) {
      assert.match(source.retrieved ?? '', /^\d{4}-\d{2}-\d{2}$/, source.url);
      assert.ok(source.prefixes.length > 0, source.url);
      // A list read from a mirror names its commit; one refreshed from the operator has no `via`.
      if (source.via !== undefined) assert.match(source.via.commit, /^[0-9a-f]{40}$/, source.url);
      // The network address of every published prefix is inside it; TEST-NET-2 is in no list.
      for (const prefix of source.prefixes) {
        const [network] = ipaddr.parseCIDR(prefix);
        for (const agent of source.agents) {
          assert.equal(
            await verifier.verify(request({ agent, ip: network.toString() })),
            true,
            `${agent} ${prefix}`,
          );
        }
      }
      for (const agent of source.agents) {
        assert.equal(
          await verifier.verify(request({ agent, ip: '198.51.100.1' })),
          false,
          `spoofed ${agent}`,
        );
      }
    }
    // Bisection over merged intervals agrees with testing every prefix, at and around their edges.
    const google = publishedIpRanges.sources.find((source) => source.operator === 'Google') as IpRangeSource;
    const matcher = createIpRangeMatcher(publishedIpRanges);
    const prefixes = google.prefixes
      .filter((prefix) => !prefix.includes(':'))
      .map((p) => ipaddr.parseCIDR(p));
    fc.assert(
      fc.property(fc.nat(prefixes.length - 1), fc.integer({ min: -3, max: 300 }), (index, offset) => {
        const [network, bits] = prefixes[index] as [ipaddr.IPv4, number];
        const value = ipaddr
          .parse(network.toString())
          .toByteArray()
          .reduce((sum, byte) => sum * 256 + byte, 0);
        const shifted =
          (value + (offset >= 0 ? (offset * 2 ** (32 - bits)) / 256 : offset) + 2 ** 32) % 2 ** 32;
        const address = ipaddr
          .fromByteArray([24, 16, 8, 0].map((shift) => Math.floor(shifted / 2 ** shift) % 256))
          .toString();
        const expected = prefixes.some(([n, b]) => ipaddr.parse(address).match(n, b));
        assert.equal(matcher.contains('Googlebot', address), expected, address);
        // The same address through the general parser (IPv4-mapped IPv6) gets the same answer.
        assert.equal(matcher.contains('Googlebot', `::ffff:${address}`), expected, address);
      }),
      { numRuns: 2000 },
    );
    // One operator's ranges never verify another's agent.
    const gptbotNetwork = ipaddr.parseCIDR(publishedIpRanges.sources[0]?.prefixes[0] as string)[0].toString();
    assert.equal(await verifier.verify(request({ agent: 'PerplexityBot', ip: gptbotNetwork })), false);
    // Anthropic publishes one list for its three crawlers (claude.com/crawling/bots.json): an address
    // inside its /22, not a prefix's first, verifies each; ClaudeBot from another cloud address does not.
    for (const agent of ['ClaudeBot', 'Claude-SearchBot', 'Claude-User']) {
      assert.equal(await verifier.verify(request({ agent, ip: '216.73.217.16' })), true, agent);
    }
    assert.equal(await verifier.verify(request({ agent: 'ClaudeBot', ip: '34.162.191.82' })), false);
  });
});
