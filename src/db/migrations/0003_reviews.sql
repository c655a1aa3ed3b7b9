-- Reviews: the pull requests of the local code host (a branch of a repository on this machine,
-- reviewed and merged on Quire's own page at /review/{id}).

CREATE TABLE reviews (
  -- Random and unguessable: the review page's address is its only credential.
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  job_id text NOT NULL,
  repository text NOT NULL,
  branch text NOT NULL,
  base_ref text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'merged')),
  merge_commit text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  merged_at timestamptz
);

-- At most one open review per branch: a retried run updates it instead of opening a second one.
CREATE UNIQUE INDEX reviews_open_branch ON reviews (project_id, branch) WHERE status = 'open';
CREATE INDEX reviews_job_id ON reviews (job_id);
