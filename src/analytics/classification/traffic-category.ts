/**
 * The categories every page view is classified into (DESIGN.md §4), and how they fold into the
 * export's two columns.
 */
import { assertNever } from '../../assert-never.ts';

export const trafficCategories = ['human', 'ai_assistant', 'ai_search', 'ai_training', 'bot'] as const;

export type TrafficCategory = (typeof trafficCategories)[number];

/** The AI categories: agents fetching for a person, AI search crawlers, AI training crawlers. */
export type AiCategory = Extract<TrafficCategory, 'ai_assistant' | 'ai_search' | 'ai_training'>;

/** Which export column a category lands in; `null` means it is counted in neither (plain bots). */
export type ExportColumn = 'human' | 'ai' | null;

/**
 * `ai` is `ai_assistant` by default; a project that sets `countAiCrawlersAsAi` also counts
 * `ai_search` and `ai_training` there. Plain bots are never in the export.
 */
export function exportColumn(
  category: TrafficCategory,
  options: { countAiCrawlersAsAi: boolean },
): ExportColumn {
  switch (category) {
    case 'human':
      return 'human';
    case 'ai_assistant':
      return 'ai';
    case 'ai_search':
    case 'ai_training':
      return options.countAiCrawlersAsAi ? 'ai' : null;
    case 'bot':
      return null;
    default:
      return assertNever(category, 'traffic category');
  }
}
