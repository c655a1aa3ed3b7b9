/**
 * Verification by the operator's published address ranges. The table (`data/agent-ip-ranges.json`) is
 * versioned data like the AI-agent table: each source names the agents it covers, the URL it was read
 * from and when; `scripts/refresh-agent-ip-ranges.ts` rebuilds it from the operators' JSON files
 * (`{"creationTime", "prefixes": [{"ipv4Prefix"} | {"ipv6Prefix"}]}`, the format of
 * https://developers.google.com/static/crawling/ipranges/common-crawlers.json and https://openai.com/gptbot.json).
 * Parsing and matching use `ipaddr.js`.
 */
import ipaddr from 'ipaddr.js';

export interface IpRangeSource {
  /** Agent names as the classifier reports them (`GPTBot`, `Googlebot`). */
  agents: string[];
  operator: string;
  url: string;
  /** `YYYY-MM-DD`, or null when the list has not been retrieved yet. */
  retrieved: string | null;
  /**
   * Where the list was read when not from `url` itself: a public mirror that downloads the
   * operators' lists daily, at the commit whose copy was taken (`retrieved` is then that copy's date).
   */
  via?: { repository: string; commit: string; path: string; license: string };
  prefixes: string[];
}

export interface IpRangeTable {
  sources: IpRangeSource[];
}

export interface IpRangeMatcher {
  /** Agents with published ranges. */
  covers(agent: string): boolean;
  /** The address is in a range published for the agent. */
  contains(agent: string, address: string): boolean;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * An agent's ranges: IPv4 as sorted, merged intervals searched by bisection (Google's and
 * DuckDuckGo's lists hold hundreds of prefixes, and every claimed view with a new address is
 * checked); IPv6 (a few prefixes) scanned.
 */
interface AgentRanges {
  starts: number[];
  ends: number[];
  v6: Array<[ipaddr.IPv6, number]>;
}

export function createIpRangeMatcher(table: IpRangeTable): IpRangeMatcher {
  const prefixesByAgent = new Map<string, Range[]>();
  for (const source of table.sources) {
    const ranges = source.prefixes.map((prefix) => ipaddr.parseCIDR(prefix));
    for (const agent of source.agents) {
      const key = agent.toLowerCase();
      prefixesByAgent.set(key, [...(prefixesByAgent.get(key) ?? []), ...ranges]);
    }
  }
  const byAgent = new Map<string, AgentRanges>();
  for (const [agent, ranges] of prefixesByAgent) {
    if (ranges.length > 0) byAgent.set(agent, agentRanges(ranges));
  }
  return {
    covers: (agent) => byAgent.has(agent.toLowerCase()),
    contains(agent, address) {
      const ranges = byAgent.get(agent.toLowerCase());
      if (ranges === undefined) return false;
      const quad = dottedQuad(address);
      if (quad !== undefined) return inIntervals(ranges, quad);
      if (!ipaddr.isValid(address)) return false;
      let parsed = ipaddr.parse(address);
      // An IPv4 client seen through an IPv6 socket (`::ffff:192.0.2.1`) is an IPv4 client.
      if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
        parsed = (parsed as ipaddr.IPv6).toIPv4Address();
      }
      if (parsed.kind() === 'ipv6') {
        const v6 = parsed as ipaddr.IPv6;
        return ranges.v6.some(([network, bits]) => v6.match(network, bits));
      }
      return inIntervals(ranges, ipv4Number(parsed as ipaddr.IPv4));
    },
  };
}

function inIntervals(ranges: AgentRanges, value: number): boolean {
  // The last interval starting at or before the address.
  let low = 0;
  let high = ranges.starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((ranges.starts[middle] as number) <= value) low = middle + 1;
    else high = middle - 1;
  }
  return high >= 0 && value <= (ranges.ends[high] as number);
}

/**
 * A plain dotted-quad IPv4 address (what logs and sockets give) as a number, without `ipaddr.js`'s
 * general parser; any other spelling (leading zeros, hexadecimal, IPv6) is left to it.
 */
function dottedQuad(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

function agentRanges(ranges: readonly Range[]): AgentRanges {
  const intervals: Array<[number, number]> = [];
  const v6: Array<[ipaddr.IPv6, number]> = [];
  for (const [network, bits] of ranges) {
    if (network.kind() === 'ipv6') {
      v6.push([network as ipaddr.IPv6, bits]);
      continue;
    }
    const size = 2 ** (32 - bits);
    const start = Math.floor(ipv4Number(network as ipaddr.IPv4) / size) * size;
    intervals.push([start, start + size - 1]);
  }
  intervals.sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const [start, end] of intervals) {
    const last = ends.length - 1;
    if (last >= 0 && start <= (ends[last] as number) + 1) ends[last] = Math.max(ends[last] as number, end);
    else {
      starts.push(start);
      ends.push(end);
    }
  }
  return { starts, ends, v6 };
}

function ipv4Number(address: ipaddr.IPv4): number {
  const [a, b, c, d] = address.octets as [number, number, number, number];
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

/** Reads an operator's published list; throws on anything but its documented shape. */
export function prefixesFromPublishedList(document: unknown): string[] {
  const prefixes = (document as { prefixes?: unknown })?.prefixes;
  if (!Array.isArray(prefixes)) throw new TypeError('expected {"prefixes": [...]}');
  return prefixes.map((entry: unknown) => {
    const fields = (entry ?? {}) as { ipv4Prefix?: unknown; ipv6Prefix?: unknown };
    const prefix = fields.ipv4Prefix ?? fields.ipv6Prefix;
    if (typeof prefix !== 'string' || !ipaddr.isValidCIDR(prefix)) {
      throw new TypeError(`not a CIDR prefix: ${JSON.stringify(entry)}`);
    }
    return prefix;
  });
}
