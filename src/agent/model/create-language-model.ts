import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { assertNever } from '../../assert-never.ts';
import { parseModelId } from '../../config.ts';
import { NonRetriableError } from '../../errors.ts';

/** The provider settings the model factory needs (a subset of the frozen config). */
export interface ModelProviderSettings {
  anthropicApiKey: string | null;
  openaiApiKey: string | null;
  openaiCompatibleBaseUrl: string | null;
  openaiCompatibleApiKey: string | null;
}

/**
 * Turns `<provider>:<model-id>` into an AI SDK model. Keys come from configuration only; they are
 * sent to the provider and nowhere else (never into prompts, events or logs).
 *
 *   createLanguageModel('openai-compatible:llama3.1', settings)
 */
export function createLanguageModel(
  name: string,
  settings: ModelProviderSettings,
  options: { fetch?: typeof fetch } = {},
): LanguageModel {
  const parsed = parseModelId(name);
  if (parsed === null) {
    throw new NonRetriableError(
      `The model "${name}" is not <provider>:<model-id> with provider anthropic, openai or openai-compatible`,
    );
  }
  const fetchOption = options.fetch === undefined ? {} : { fetch: options.fetch };
  switch (parsed.provider) {
    case 'anthropic':
      if (settings.anthropicApiKey === null)
        throw new NonRetriableError('ANTHROPIC_API_KEY is not set; it is needed for anthropic models');
      return createAnthropic({ apiKey: settings.anthropicApiKey, ...fetchOption })(parsed.modelId);
    case 'openai':
      if (settings.openaiApiKey === null)
        throw new NonRetriableError('OPENAI_API_KEY is not set; it is needed for openai models');
      return createOpenAI({ apiKey: settings.openaiApiKey, ...fetchOption })(parsed.modelId);
    case 'openai-compatible':
      if (settings.openaiCompatibleBaseUrl === null) {
        throw new NonRetriableError(
          'OPENAI_COMPATIBLE_BASE_URL is not set; it is needed for openai-compatible models',
        );
      }
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: settings.openaiCompatibleBaseUrl,
        ...(settings.openaiCompatibleApiKey === null ? {} : { apiKey: settings.openaiCompatibleApiKey }),
        includeUsage: true,
        ...fetchOption,
      })(parsed.modelId);
    default:
      return assertNever(parsed.provider, 'provider');
  }
}

/** The model a job uses: the project's `settings.model` when valid, else the configured default. */
export function chooseModelName(
  projectSettings: Record<string, unknown>,
  defaultModel: string | null,
): string | null {
  const override = projectSettings.model;
  if (typeof override === 'string' && parseModelId(override) !== null) return override;
  return defaultModel;
}
