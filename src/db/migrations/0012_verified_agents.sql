-- Issue 15: classification that holds on real traffic.
-- A view remembers the Web Bot Auth signer it named (reclassification reads it, with the user agent
-- and the Markdown flag), and whether its agent was verified: by the operator's published address
-- ranges, by reverse DNS where the operator documents it, or by a valid HTTP message signature.
-- Both are constant per client, so the writer stores them from its per-client profiles.
ALTER TABLE analytics_page_views
  ADD COLUMN signature_agent text,
  ADD COLUMN verified boolean NOT NULL DEFAULT false;

-- The agents report's claimed vs verified views; a view is counted in `views` and, when verified,
-- also in `verified_views`.
ALTER TABLE analytics_agent_rollups
  ADD COLUMN verified_views bigint NOT NULL DEFAULT 0;

-- People sent by AI answers: the assistant named by the referrer or `utm_source` (null: none), per view.
ALTER TABLE analytics_page_views
  ADD COLUMN ai_referrer text;

-- The `?detail=categories` export: per page and bucket, human views sent by an AI assistant, and AI
-- views (assistant, search, training) whose agent was verified. The packed rollups keep the export's
-- three counters only; the detail is read from these per-page rows, which stay the source of truth.
ALTER TABLE analytics_path_rollups
  ADD COLUMN ai_referred integer NOT NULL DEFAULT 0,
  ADD COLUMN verified_ai integer NOT NULL DEFAULT 0;
