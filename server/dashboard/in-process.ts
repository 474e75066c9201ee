/**
 * A fetch for the typed v4 client that reaches the embedded engine in process (engine.call): the
 * dashboard's calls never cross the public port, never spend a public accessKey's rate budget, and
 * run as the dashboard's own principal. Remote services get the real fetch instead.
 */
export function inProcessFetch(call: (path: string, body: unknown) => Promise<object>): typeof fetch {
  return async (input, init) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    let body: unknown;
    try {
      body = JSON.parse(typeof init?.body === "string" ? init.body : "");
    } catch {
      body = null;
    }
    const answer = await call(path, body);
    return new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json; charset=utf-8" } });
  };
}
