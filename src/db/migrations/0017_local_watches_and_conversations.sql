-- Local repositories (issue 16): the last commit of the watched branch each merge automation has
-- fired for. Advanced in the transaction that starts the commit's job, so a restart neither
-- misses nor repeats a merge.
CREATE TABLE automation_ref_watches (
  automation_id text PRIMARY KEY REFERENCES automations (id) ON DELETE CASCADE,
  -- What was watched: a changed trigger starts watching afresh from the branch's head.
  repository text NOT NULL,
  branch text NOT NULL,
  last_commit text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Pull-request conversations (issue 16): a comment on one of Quire's pull requests became this
-- follow-up message; when its run ends, the worker answers in the pull request and sets replied_at.
CREATE TABLE pull_request_conversations (
  message_id text PRIMARY KEY REFERENCES agent_job_messages (id) ON DELETE CASCADE,
  job_id text NOT NULL REFERENCES agent_jobs (id) ON DELETE CASCADE,
  pull_request_url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  replied_at timestamptz,
  -- What answering made of it ('replied', or why not), for people reading the table.
  outcome text
);

CREATE INDEX pull_request_conversations_waiting ON pull_request_conversations (created_at)
  WHERE replied_at IS NULL;
