-- Webhook deliveries are derived from the change feed: each subscription
-- keeps how far it has delivered, so that a restart, a kill or a receiver
-- that is down delays deliveries but never drops them.
CREATE TABLE webhook_cursors (
    -- `webhooks::Subscription::id`: a digest of its event, URL, view and kinds.
    subscription TEXT PRIMARY KEY,
    -- Delivered (or nothing to deliver) through this generation.
    generation BIGINT NOT NULL,
    -- Failed attempts at the next delivery, when the first one failed,
    -- and when to try again (milliseconds since 1970).
    attempts BIGINT NOT NULL DEFAULT 0,
    first_failure BIGINT,
    next_attempt BIGINT NOT NULL DEFAULT 0,
    -- The receiver answered 410 Gone: nothing more is sent.
    ended BOOLEAN NOT NULL DEFAULT FALSE
);

-- Who sends: one process at a time among every replica, holding this
-- lease until `expires_at` (milliseconds since 1970) and renewing it.
CREATE TABLE webhook_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
