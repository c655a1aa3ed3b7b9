-- Agent jobs, their messages (the instructions, in order), their event log, and the bookkeeping
-- around them: idempotency keys, rate-limit counters and webhooks.

CREATE TABLE agent_jobs (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('active', 'completed', 'archived', 'failed')),
  repository text,
  ref text NOT NULL,
  model text NOT NULL,
  branch text,
  -- The pull request of the job, kept while a follow-up runs (the API shows null while active).
  pull_request_url text,
  error text,
  -- The conversation so far, handed back to the agent on the next run.
  history jsonb NOT NULL DEFAULT '[]'::jsonb,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  -- Transient failures of the current run in a row; reset when a run succeeds.
  run_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);

CREATE INDEX agent_jobs_project_created ON agent_jobs (project_id, created_at DESC, id DESC);
CREATE INDEX agent_jobs_project_status_created ON agent_jobs (project_id, status, created_at DESC, id DESC);

CREATE TABLE agent_job_messages (
  -- The global sequence gives the order messages arrived in.
  sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  job_id text NOT NULL REFERENCES agent_jobs (id) ON DELETE CASCADE,
  prompt text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processed', 'failed', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz
);

CREATE INDEX agent_job_messages_job ON agent_job_messages (job_id, sequence);

CREATE TABLE agent_job_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id text NOT NULL REFERENCES agent_jobs (id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX agent_job_events_job ON agent_job_events (job_id, id);

CREATE TABLE idempotency_keys (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key text NOT NULL,
  -- What the key was first used for: a repeat with another request is refused.
  request_fingerprint text NOT NULL,
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, key)
);

CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE rate_limit_counters (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (project_id, bucket, window_start)
);

CREATE TABLE project_webhooks (
  project_id text PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  url text NOT NULL,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
