import { Type } from '@fastify/type-provider-typebox';
import { ProjectIdParameter } from '../schemas.ts';
import { AgentJobSchema, PromptBody } from './agent-job-schemas.ts';

const Branch = Type.String({ minLength: 1, maxLength: 200, description: 'A branch name such as main' });

const MergeTriggerSchema = Type.Object(
  {
    type: Type.Literal('merge'),
    repository: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'The code repository: owner/name or its URL (GitHub, GitLab), or a path on the server (local)',
    }),
    branch: Branch,
    paths: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
        maxItems: 50,
        description: 'Globs on the changed files (docs/**, src/**/*.ts); any matching file fires it',
      }),
    ),
  },
  { additionalProperties: false, description: 'A change merged into the branch' },
);

const ScheduleTriggerSchema = Type.Object(
  {
    type: Type.Literal('schedule'),
    cron: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Five fields (minute hour day month weekday), or six with seconds first; at most once a minute',
    }),
    timeZone: Type.String({ minLength: 1, maxLength: 100, default: 'UTC', description: 'An IANA time zone' }),
  },
  { additionalProperties: false, description: 'A cron schedule' },
);

const ManualTriggerSchema = Type.Object(
  { type: Type.Literal('manual') },
  { additionalProperties: false, description: 'Only on demand (the trigger endpoint, CLI, dashboard)' },
);

const AutomationTriggerSchema = Type.Union([MergeTriggerSchema, ScheduleTriggerSchema, ManualTriggerSchema]);

const AutomationModeSchema = Type.Union(
  [Type.Literal('pull-request-per-change'), Type.Literal('continue-pull-request')],
  {
    description:
      'pull-request-per-change: a new job and pull request per firing; continue-pull-request: while the latest job of the automation is running or has a pull request that its code host says is still open, a firing is a follow-up of that job; once that pull request is merged or closed, the next firing starts a new job',
  },
);

const AutomationLimitsSchema = Type.Object(
  {
    maxTokensPerJob: Type.Union([Type.Integer({ minimum: 1000, maximum: 100_000_000 }), Type.Null()], {
      description: 'Input plus output tokens one job may spend; null for no limit of its own',
    }),
  },
  { additionalProperties: false },
);

const Prompt = PromptBody.properties.prompt;

export const AutomationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    enabled: Type.Boolean(),
    trigger: AutomationTriggerSchema,
    prompt: Type.String(),
    mode: AutomationModeSchema,
    limits: AutomationLimitsSchema,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'An automation: what the agent does when its trigger fires' },
);

export const AutomationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    trigger: AutomationTriggerSchema,
    prompt: Prompt,
    mode: Type.Optional(AutomationModeSchema),
    limits: Type.Optional(Type.Partial(AutomationLimitsSchema)),
  },
  { additionalProperties: false },
);

export const AutomationPatchBody = Type.Partial(AutomationBody, {
  additionalProperties: false,
  minProperties: 1,
});

export const AutomationParameters = Type.Object({
  projectId: ProjectIdParameter,
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The automation id' }),
});

export const AutomationHistorySchema = Type.Object({ jobs: Type.Array(AgentJobSchema) });
