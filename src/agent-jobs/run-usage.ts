/**
 * Tokens a run used and what they cost. Providers bill input read from their prompt cache (and,
 * for Anthropic, input written to it) at their own prices, so those are counted apart from the
 * rest of the input; `inputTokens` is all input, cached or not, as the AI SDK reports it.
 */
import priceTable from './model-prices.json' with { type: 'json' };

export interface RunUsage {
  /** All input tokens, including `cacheReadTokens` and `cacheWriteTokens`. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const noUsage: RunUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type PriceTable = Record<string, ModelPrice>;

/** The prices in model-prices.json (its `sources` name the pages they were copied from, and when). */
const defaultPrices: Readonly<PriceTable> = Object.freeze(priceTable.prices);

export function addUsage(total: RunUsage, more: RunUsage): RunUsage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cacheReadTokens: total.cacheReadTokens + more.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + more.cacheWriteTokens,
  };
}

export function totalTokens(usage: RunUsage): number {
  return usage.inputTokens + usage.outputTokens;
}

/**
 * The price of `<provider>:<model-id>`: the project's table first, then the default one; an exact
 * name, else the longest name the model starts with (`anthropic:claude-sonnet-4-5-20250929` is
 * priced as `anthropic:claude-sonnet-4-5`). Null for a model no table knows (its cost counts as 0).
 */
export function priceOf(model: string, projectPrices: PriceTable = {}): ModelPrice | null {
  for (const table of [projectPrices, defaultPrices]) {
    const exact = table[model];
    if (exact) return exact;
    let best: string | null = null;
    for (const name of Object.keys(table)) {
      if (model.startsWith(name) && (best === null || name.length > best.length)) best = name;
    }
    if (best !== null) return table[best] ?? null;
  }
  return null;
}

/** Estimated cost in US dollars, rounded to a millionth of a dollar. */
export function estimateCost(usage: RunUsage, price: ModelPrice | null): number {
  if (price === null) return 0;
  const uncachedInput = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const microdollars =
    uncachedInput * price.input +
    usage.cacheReadTokens * price.cacheRead +
    usage.cacheWriteTokens * price.cacheWrite +
    usage.outputTokens * price.output;
  return Math.round(microdollars) / 1_000_000;
}

/** A project's `modelPrices` setting, kept only where every price is a finite number ≥ 0. */
export function projectPricesOf(settings: Record<string, unknown>): PriceTable {
  const value = settings.modelPrices;
  if (typeof value !== 'object' || value === null) return {};
  const table: PriceTable = {};
  for (const [model, price] of Object.entries(value)) {
    const checked = checkPrice(price);
    if (checked !== null) table[model] = checked;
  }
  return table;
}

function checkPrice(value: unknown): ModelPrice | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const number = (key: string) => {
    const field = record[key];
    return typeof field === 'number' && Number.isFinite(field) && field >= 0 ? field : null;
  };
  const input = number('input');
  const output = number('output');
  if (input === null || output === null) return null;
  return {
    input,
    output,
    cacheRead: number('cacheRead') ?? input,
    cacheWrite: number('cacheWrite') ?? input,
  };
}
