/**
 * Migrations of the incidents room (ids 0270–0279), spread into server/store/migrations.ts.
 * Never edit a shipped one.
 */
export const INCIDENT_MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
  {
    // issue #26.1: the peak is the worst hit (level, then score, then earliest: lib/incidents.ts peakOrder). Rows
    // stored under the old rule (highest score first) are recomputed from their hits. A hit's score is re-read as
    // the best score at its own level, as server/incidents/hits.ts now records it.
    id: "0270_incident_peak_worst_first",
    sql: `
UPDATE incident_hits h SET hit = jsonb_set(h.hit, '{score}', to_jsonb(x.score))
FROM (
  SELECT ih.id, max((e->>'probability')::float8) AS score
  FROM incident_hits ih
  CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(COALESCE(ih.body->'frameDetail', ih.body->'audioDetail', ih.body)->'allLabels') = 'array' AND jsonb_array_length(COALESCE(ih.body->'frameDetail', ih.body->'audioDetail', ih.body)->'allLabels') > 0 THEN COALESCE(ih.body->'frameDetail', ih.body->'audioDetail', ih.body)->'allLabels' ELSE '[]'::jsonb END) e
  WHERE e->>'riskLabel1' = ih.label AND e->>'riskLevel' = ih.hit->>'riskLevel' AND jsonb_typeof(e->'probability') = 'number'
  GROUP BY ih.id
) x
WHERE h.id = x.id;
UPDATE incidents i SET peak = p.hit, peak_score = COALESCE((p.hit->>'score')::float8, 0)
FROM (
  SELECT DISTINCT ON (incident_id) incident_id, hit
  FROM incident_hits
  ORDER BY incident_id,
    CASE hit->>'riskLevel' WHEN 'REJECT' THEN 2 WHEN 'REVIEW' THEN 1 ELSE 0 END DESC,
    COALESCE((hit->>'score')::float8, 0) DESC,
    t ASC, id ASC
) p
WHERE i.id = p.incident_id;
`,
  },
  {
    // issue #26.5: the end user (contract tokenId) of each stream and file, for the context beside a decision.
    // Filled from the task where the embedded service holds it; the dashboard's own placeholder "dashboard" is no user.
    id: "0271_source_token_id",
    sql: `
ALTER TABLE dashboard_streams ADD COLUMN token_id text;
ALTER TABLE dashboard_files ADD COLUMN token_id text;
CREATE INDEX dashboard_streams_token_id_idx ON dashboard_streams (token_id);
CREATE INDEX dashboard_files_token_id_idx ON dashboard_files (token_id);
UPDATE dashboard_streams s SET token_id = NULLIF(t.request->'data'->>'tokenId', '')
FROM tasks t WHERE t.request_id = s.request_id AND NOT (t.key_id = 'dashboard' AND t.request->'data'->>'tokenId' = 'dashboard');
UPDATE dashboard_files f SET token_id = NULLIF(t.request->'data'->>'tokenId', '')
FROM tasks t WHERE t.request_id = f.request_id AND NOT (t.key_id = 'dashboard' AND t.request->'data'->>'tokenId' = 'dashboard');
`,
  },
];
