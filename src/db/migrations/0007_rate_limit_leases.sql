-- Rate-limit counters hand out leases of several requests (src/rate-limits/rate-limit.ts): the
-- count is what has been granted, and `last_grant` what the latest lease received, which the
-- statement that takes a lease returns (ON CONFLICT DO UPDATE cannot return the old count).
ALTER TABLE rate_limit_counters ADD COLUMN last_grant integer NOT NULL DEFAULT 0;
