/**
 * Review queues (server/queues; docs/pending/queues.md): named queues with routing rules, and on each incident the
 * queue it was routed to, who holds it claimed until when, and the facts its routing reads (appId, eventId,
 * tokenId, list names) kept with it. Ids 0300–0309 belong to this module.
 */
export const QUEUE_MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
  {
    id: "0300_review_queues",
    sql: `
CREATE TABLE review_queues (
  id text PRIMARY KEY,
  name text NOT NULL,
  position integer NOT NULL,
  rule jsonb NOT NULL,
  order_by text NOT NULL,
  roles jsonb NOT NULL,
  users jsonb NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX review_queues_name_uniq ON review_queues (lower(name));
INSERT INTO review_queues (id, name, position, rule, order_by, roles, users, is_default, created_by, created_at, updated_at)
  VALUES ('default', 'Default', 2147483647, '{}'::jsonb, 'oldest', '[]'::jsonb, '[]'::jsonb, true, NULL, now(), now());
ALTER TABLE incidents ADD COLUMN queue_id text;
ALTER TABLE incidents ADD COLUMN claimed_by text;
ALTER TABLE incidents ADD COLUMN claim_expires_at timestamptz;
ALTER TABLE incidents ADD COLUMN route_facts jsonb;
CREATE INDEX incidents_queue_idx ON incidents (queue_id, status, created_at);
CREATE INDEX incidents_claim_idx ON incidents (claimed_by) WHERE claimed_by IS NOT NULL;
UPDATE incidents SET queue_id = 'default' WHERE status = 'open';
`,
  },
];
