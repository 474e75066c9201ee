/**
 * The embedded dashboard's own principal: the key id its tasks are stored under. It is not a key id any
 * accessKey can have (those are 16 hex digits), so Query, Close and duplicate detection of a public
 * accessKey never see the dashboard's tasks, and it has its own stream limit (DASHBOARD_MAX_STREAMS).
 */
export const DASHBOARD_PRINCIPAL = "dashboard";
