/**
 * A faithful fake of the agent (the `AgentRunner` port) for testing the job runner: it honours the
 * abort signal, reports events, carries the conversation forward and publishes a pull request link,
 * and its behaviour is chosen by directives in the prompts:
 *   "wait 500"             take 500 ms (aborted early by the signal)
 *   "fail transient"       throw an ordinary error (the queue retries)
 *   "fail transient once"  fail the first attempt of each run only
 *   "fail permanent"       throw NonRetriableError
 *   "no change"            finish without a pull request
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentRunInput, AgentRunner, AgentRunOutcome } from '../src/agent-jobs/agent-runner.ts';
import { NonRetriableError } from '../src/errors.ts';

export interface FakeAgentRunner extends AgentRunner {
  /** Every run started in this process, in order. */
  runs: { jobId: string; prompts: string[] }[];
}

export function createFakeAgentRunner(): FakeAgentRunner {
  const runs: FakeAgentRunner['runs'] = [];
  const failedOnce = new Set<string>();
  return {
    runs,
    async run(input: AgentRunInput): Promise<AgentRunOutcome> {
      const prompts = input.messages.map((message) => message.prompt);
      runs.push({ jobId: input.job.id, prompts });
      await input.emit({ type: 'agent-step', data: { prompts, pid: process.pid } });
      for (const prompt of prompts) {
        const wait = /wait (\d+)/.exec(prompt);
        if (wait) await sleep(Number(wait[1]), undefined, { signal: input.signal });
        if (prompt.includes('fail permanent'))
          throw new NonRetriableError('The model provider rejected the credentials');
        const onceKey = `${input.job.id}:${input.messages[0]?.id}`;
        if (prompt.includes('fail transient once') && !failedOnce.has(onceKey)) {
          failedOnce.add(onceKey);
          throw new Error('provider answered 503');
        }
        if (prompt.includes('fail transient') && !prompt.includes('once'))
          throw new Error('provider answered 503');
      }
      input.signal.throwIfAborted();
      const changed = !prompts.some((prompt) => prompt.includes('no change'));
      await input.emit({ type: 'agent-finish', data: { changed, pid: process.pid } });
      return {
        history: [
          ...input.history,
          ...prompts.map((prompt) => ({ role: 'user', content: prompt })),
          { role: 'assistant', content: 'done' },
        ],
        branch: input.job.branch ?? `quire/${input.job.id.slice(4, 10)}-change`,
        prLink: changed ? (input.job.prLink ?? `https://git.example/pulls/${input.job.id}`) : null,
        summary: `Carried out ${prompts.length} instruction(s)`,
        usage: {
          inputTokens: 100 * prompts.length,
          outputTokens: 10 * prompts.length,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
      };
    },
  };
}
