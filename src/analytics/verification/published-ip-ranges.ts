/** The shipped table of operators' published address ranges (see data/SOURCE.md). */
import table from './data/agent-ip-ranges.json' with { type: 'json' };
import type { IpRangeTable } from './ip-ranges.ts';

export const publishedIpRanges: IpRangeTable = table;
