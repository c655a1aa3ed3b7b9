-- Conversations on the local code host's review pages (issue 16): a comment of a signed-in
-- dashboard user becomes a follow-up of the review's job, and Quire's reply (the run's summary)
-- is added when that run ends, as the other code hosts' pull-request comments are.
CREATE TABLE review_comments (
  id text PRIMARY KEY,
  review_id text NOT NULL REFERENCES reviews (id) ON DELETE CASCADE,
  -- The dashboard user's email; null for Quire's replies.
  author text,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX review_comments_review ON review_comments (review_id, created_at, id);
