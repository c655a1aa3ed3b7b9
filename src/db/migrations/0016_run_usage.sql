-- Cost limits (issue 16): tokens read from and written to the provider's prompt cache, and the
-- estimated cost, per job; and a ledger of runs per project that monthly budgets are summed over
-- (a job's runs may span months, and archived jobs still count).

ALTER TABLE agent_jobs
  ADD COLUMN cache_read_tokens bigint NOT NULL DEFAULT 0,
  ADD COLUMN cache_write_tokens bigint NOT NULL DEFAULT 0,
  ADD COLUMN estimated_cost numeric(14, 6) NOT NULL DEFAULT 0;

CREATE TABLE agent_run_usage (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  job_id text REFERENCES agent_jobs (id) ON DELETE SET NULL,
  input_tokens bigint NOT NULL,
  output_tokens bigint NOT NULL,
  cache_read_tokens bigint NOT NULL,
  cache_write_tokens bigint NOT NULL,
  -- US dollars, from the price table in effect when the run ended.
  estimated_cost numeric(14, 6) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX agent_run_usage_month ON agent_run_usage (project_id, created_at);
