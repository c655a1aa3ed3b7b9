/**
 * Verification by the operator's published address ranges. The table (`data/agent-ip-ranges.json`) is
 * versioned data like the AI-agent table: each source names the agents it covers, the URL it was read
 * from and when; `scripts/refresh-agent-ip-ranges.ts` rebuilds it from the operators' JSON files
 * (`{"creationTime", "prefixes": [{"ipv4Prefix"} | {"ipv6Prefix"}]}`, the format of
 * https://developers.google.com/search/apis/ipranges/googlebot.json and https://openai.com/gptbot.json).
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

export function createIpRangeMatcher(table: IpRangeTable): IpRangeMatcher {
  const byAgent = new Map<string, Range[]>();
  for (const source of table.sources) {
    const ranges = source.prefixes.map((prefix) => ipaddr.parseCIDR(prefix));
    for (const agent of source.agents) {
      const key = agent.toLowerCase();
      byAgent.set(key, [...(byAgent.get(key) ?? []), ...ranges]);
    }
  }
  return {
    covers: (agent) => (byAgent.get(agent.toLowerCase())?.length ?? 0) > 0,
    contains(agent, address) {
      const ranges = byAgent.get(agent.toLowerCase());
      if (ranges === undefined || !ipaddr.isValid(address)) return false;
      let parsed = ipaddr.parse(address);
      // An IPv4 client seen through an IPv6 socket (`::ffff:192.0.2.1`) is an IPv4 client.
      if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
        parsed = (parsed as ipaddr.IPv6).toIPv4Address();
      }
      return ranges.some(
        ([network, bits]) => parsed.kind() === network.kind() && parsed.match(network, bits),
      );
    },
  };
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
