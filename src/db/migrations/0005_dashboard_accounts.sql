-- Dashboard accounts, their sessions, and failed sign-ins (for lockout). Every dashboard user
-- manages every project: Quire is self-hosted by one team.

CREATE TABLE dashboard_users (
  id text PRIMARY KEY,
  -- Stored lower-cased, so that sign-in ignores case.
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 320),
  -- scrypt, with its parameters and salt: "scrypt$N$r$p$salt$hash" (src/accounts/password.ts).
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz
);

CREATE TABLE dashboard_sessions (
  -- SHA-256 of the cookie's random token; the token itself is never stored.
  token_hash bytea PRIMARY KEY,
  user_id text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  -- Every form and mutation of this session must carry it.
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);

-- One row per failed sign-in, kept for whichever email was typed (known or not, so that lockout
-- reveals nothing about which accounts exist).
CREATE TABLE dashboard_sign_in_failures (
  email text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX dashboard_sign_in_failures_email ON dashboard_sign_in_failures (email, failed_at);
