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
