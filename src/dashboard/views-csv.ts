/** The top pages table as CSV (RFC 4180), safe to open in a spreadsheet. */
import type { PageViewsResult } from './analytics-source.ts';

/** Quotes every cell; a cell a spreadsheet would run as a formula gets a leading apostrophe. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** The export's columns, then its `detail=categories` split (as the hosted service's CSV splits views). */
const detailColumns = ['aiReferred', 'aiSearch', 'aiTraining', 'otherBots', 'verifiedAi'] as const;

export function viewsCsvHeader(): string {
  return `${['path', 'human', 'ai', 'total', ...detailColumns, 'visitors'].map(csvCell).join(',')}\r\n`;
}

/** `visitors`: unique visitors per path (human or AI, deduplicated); 0 for a path without. */
export function viewsCsvRows(views: PageViewsResult['views'], visitors: ReadonlyMap<string, number>): string {
  return views
    .map(
      (row) =>
        `${[row.path, row.human, row.ai, row.total, ...detailColumns.map((column) => row[column] ?? 0), visitors.get(row.path) ?? 0].map(csvCell).join(',')}\r\n`,
    )
    .join('');
}
