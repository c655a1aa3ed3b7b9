-- Projects and their API keys.

CREATE TABLE projects (
  id text PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- A URL or a local path; null for a project that only serves analytics.
  repository text,
  ref text NOT NULL DEFAULT 'main',
  code_host text NOT NULL DEFAULT 'local' CHECK (code_host IN ('local', 'github', 'gitlab')),
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  scopes text[] NOT NULL CHECK (scopes <@ ARRAY['read', 'write', 'ingest'] AND cardinality(scopes) > 0),
  -- SHA-256 of the whole key; the key itself is never stored.
  secret_hash bytea NOT NULL UNIQUE,
  last_four text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  expires_at timestamptz
);

CREATE INDEX api_keys_project_id ON api_keys (project_id);
