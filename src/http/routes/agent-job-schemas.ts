import { Type } from '@fastify/type-provider-typebox';
import { jobStatuses } from '../../agent-jobs/job-status.ts';
import { maximumPromptLength, promptPattern, promptRule } from '../../agent-jobs/prompt.ts';
import { ProjectIdParameter } from '../schemas.ts';

export const JobStatusSchema = Type.Union(
  [Type.Literal('active'), Type.Literal('completed'), Type.Literal('archived'), Type.Literal('failed')],
  { description: jobStatuses.join(', ') },
);

const nullableString = Type.Union([Type.String(), Type.Null()]);

const JobTriggerSchema = Type.Object({
  type: Type.Union([Type.Literal('merge'), Type.Literal('schedule'), Type.Literal('manual')]),
  automationId: Type.String(),
  source: Type.Object({
    url: nullableString,
    commit: nullableString,
    title: nullableString,
  }),
});

const JobUsageSchema = Type.Object(
  {
    inputTokens: Type.Integer({ description: 'Input tokens of all runs, cached ones included' }),
    outputTokens: Type.Integer(),
    cachedInputTokens: Type.Integer({
      description: "Input tokens read from the provider's prompt cache (billed at a lower price)",
    }),
    estimatedCost: Type.Number({
      description:
        "Estimated cost in US dollars, from the model's price (project setting, else the default table)",
    }),
  },
  { description: 'Tokens the runs of the job used so far, and their estimated cost' },
);

export const AgentJobSchema = Type.Object(
  {
    id: Type.String({ description: 'Unique identifier of the agent job' }),
    status: JobStatusSchema,
    source: Type.Object({
      repository: Type.String({ description: 'The repository: a URL, or a path on the server' }),
      ref: Type.String({ description: 'The base branch the job started from' }),
    }),
    model: Type.String({ description: '<provider>:<model-id>; empty when no model is configured' }),
    prLink: Type.Union([Type.String(), Type.Null()], {
      description: 'The pull request; null while active, or when no file was changed',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    archivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    updatedAt: Type.String({ format: 'date-time' }),
    branch: Type.Union([Type.String(), Type.Null()], { description: 'The working branch, once chosen' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the job failed' }),
    trigger: Type.Union([JobTriggerSchema, Type.Null()], {
      description: 'What started the job when an automation did; null for jobs people started',
    }),
    usage: JobUsageSchema,
  },
  { description: 'An agent job' },
);

export const PromptBody = Type.Object(
  {
    prompt: Type.String({
      minLength: 1,
      maxLength: maximumPromptLength,
      // Not only white space, and no NUL character (PostgreSQL text cannot hold one).
      pattern: promptPattern,
      description: `The instruction for the agent: ${promptRule}`,
    }),
  },
  { additionalProperties: false },
);

export const JobParameters = Type.Object({
  projectId: ProjectIdParameter,
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The agent job id' }),
});

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'A repeat with the same key returns the first response and creates nothing new',
    }),
  ),
});

export const JobEventSchema = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: 'job-create, message-create, run-start, tool-call, status-change, ...' }),
  data: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String({ format: 'date-time' }),
});
