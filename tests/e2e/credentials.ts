/** The e2e server's first supervisor (start-server.ts sets SUPERVISOR_INITIAL_PASSWORD) and where its signed-in state is kept. */
export const SUPERVISOR = { username: "admin", password: "e2e-supervisor-password" };
export const SUPERVISOR_STATE = ".test-results/e2e-supervisor.json";
