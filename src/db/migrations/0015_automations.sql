-- Automations (issue 16): agent jobs started by merged code changes, schedules and on demand.

CREATE TABLE automations (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  enabled boolean NOT NULL DEFAULT true,
  -- {type: 'merge', repository, branch, paths?} | {type: 'schedule', cron, timeZone} | {type: 'manual'}
  trigger jsonb NOT NULL,
  prompt text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('pull-request-per-change', 'continue-pull-request')),
  limits jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- A schedule's slots are fired after this instant (set at creation and by each firing): a
  -- restart neither repeats a slot nor fires the slots it slept through.
  schedule_after timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX automations_project ON automations (project_id, created_at, id);
CREATE INDEX automations_schedule ON automations ((trigger->>'type'), enabled);

-- A triggered job says what started it; ordinary jobs keep null.
ALTER TABLE agent_jobs
  ADD COLUMN automation_id text REFERENCES automations (id) ON DELETE SET NULL,
  ADD COLUMN trigger jsonb;

CREATE INDEX agent_jobs_automation ON agent_jobs (automation_id, created_at DESC, id DESC)
  WHERE automation_id IS NOT NULL;

-- One job per change and automation: a webhook redelivered, a push beside its pull request's
-- merge event, two processes firing one schedule slot all find the key taken.
CREATE TABLE automation_changes (
  automation_id text NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
  change_key text NOT NULL,
  job_id text REFERENCES agent_jobs (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (automation_id, change_key)
);

-- Webhooks from code hosts, stored before they are acknowledged and processed through the queue.
CREATE TABLE hook_deliveries (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('github', 'gitlab')),
  -- The provider's delivery id (X-GitHub-Delivery; GitLab's Idempotency-Key): kept across redeliveries.
  delivery_id text NOT NULL,
  event text NOT NULL,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  -- What processing made of it ('2 jobs', 'no automation matched', ...), for people reading the table.
  outcome text,
  UNIQUE (project_id, provider, delivery_id)
);

CREATE INDEX hook_deliveries_received ON hook_deliveries (received_at);
