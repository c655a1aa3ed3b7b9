/** The bounds of one run; every one is configurable. */
export interface AgentLimits {
  /** Model calls (steps) per run, validation rounds included. */
  maximumSteps: number;
  /** Input plus output tokens per run. */
  maximumTokens: number;
  /** Wall-clock time per run, in milliseconds. */
  maximumWallTimeMs: number;
  /** How many times validation problems go back to the model before they are listed in the pull request. */
  maximumValidationRounds: number;
  /** Retries of a failed model call (with the AI SDK's backoff) before the run fails. */
  modelRetries: number;
  /** Largest file the tools read or write, in bytes. */
  maximumFileBytes: number;
}

export const defaultAgentLimits: AgentLimits = Object.freeze({
  maximumSteps: 60,
  maximumTokens: 2_000_000,
  maximumWallTimeMs: 15 * 60 * 1000,
  maximumValidationRounds: 2,
  modelRetries: 2,
  maximumFileBytes: 1024 * 1024,
});
