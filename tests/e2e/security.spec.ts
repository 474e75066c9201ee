// Security review #9 through the real server (production build, Next behind the gate): the request target
// the gate reads is the one Next routes (property test over path variants), the sign-in redirect stays on
// this origin in Chromium, engine.io refuses handshakes without a session, and dashboard bodies are bounded.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "@playwright/test";
import { SUPERVISOR, SUPERVISOR_STATE } from "./credentials";

const port = Number(process.env.E2E_PORT ?? 3100);

/** One raw HTTP/1.1 exchange: the target goes on the wire exactly as given (fetch would drop a fragment). */
function raw(method: string, target: string, o: { body?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const body = o.body ?? (method === "GET" || method === "HEAD" ? "" : "{}");
    const extra = Object.entries(o.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("");
    socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`);
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (c) => (data += c));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, ...rest] = data.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head.toLowerCase(), body: rest.join("\r\n\r\n") });
    });
    socket.setTimeout(15_000, () => socket.destroy(new Error(`timeout on ${method} ${target}`)));
  });
}

/** Every protected dashboard route with the methods its handler exports (pages: GET). */
function protectedRoutes(): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  for (const f of fs.readdirSync("app", { recursive: true }) as string[]) {
    const dir = path.dirname(f) === "." ? "" : `/${path.dirname(f)}`;
    const p = dir.replace(/\[[^\]]+\]/g, "0123456789abcdef0123456789abcdef");
    if (f.endsWith("page.tsx") && !p.startsWith("/signin")) out.push({ method: "GET", path: p || "/" });
    if (f.endsWith("route.ts") && !/^\/api\/(receiver|health|auth\/signin)/.test(p)) {
      const src = fs.readFileSync(path.join("app", f), "utf8");
      for (const m of src.matchAll(/^export const (GET|POST|PUT|PATCH|DELETE) = guard/gm)) out.push({ method: m[1], path: p });
    }
  }
  return out;
}

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("property: no variant of a protected path reaches a handler without a session", async () => {
    test.setTimeout(180_000);
    const routes = protectedRoutes();
    expect(routes.length).toBeGreaterThan(25);
    const publicTails = ["/api/receiver/x", "/api/health", "/signin", "/api/auth/signin", "/_next/static/x.js", "/favicon.ico"];
    const variant = fc.oneof(
      fc.tuple(fc.constantFrom(...publicTails), fc.constantFrom("#/../..", "#/../../..", "#", "#/")).map(([t, f]) => (p: string) => `${p}${f}${t}`),
      fc.constantFrom(...publicTails).map((t) => (p: string) => `${t}/..${"/..".repeat(t.split("/").length - 2)}${p}`),
      fc.constantFrom(...publicTails).map((t) => (p: string) => `${t}/%2e%2e${"/%2e%2e".repeat(t.split("/").length - 2)}${p}`),
      fc.constantFrom(...publicTails).map((t) => (p: string) => `${t}\\..${"\\..".repeat(t.split("/").length - 2)}${p}`),
      fc.constantFrom("//", "///").map((s) => (p: string) => p.replace("/", s)),
      fc.nat(8).map((i) => (p: string) => p.replace(/\//g, (m, at: number) => (at === i ? "//" : m))),
      fc.constantFrom(";", ";x=1", "/;", "%3b").map((s) => (p: string) => `${p}${s}`),
      fc.constantFrom(".", "..", "./", "%2e", "%20", "%00", "%", "/").map((s) => (p: string) => `${p}${s}`),
      fc.nat(30).map((i) => (p: string) => p.split("").map((c, at) => (at === i && /[a-z]/.test(c) ? `%${c.charCodeAt(0).toString(16)}` : c)).join("")),
      fc.nat(30).map((i) => (p: string) => p.split("").map((c, at) => (at % (i + 1) === 0 ? c.toUpperCase() : c)).join("")),
      fc.constantFrom(`http://127.0.0.1:${port}`, "http://evil.example", `HTTP://localhost:${port}`).map((h) => (p: string) => `${h}${p}`),
      fc.constantFrom("/api/receiver/x", "/signin").map((t) => (p: string) => `${p}?next=${t}#${t}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), variant, async (route, make) => {
        const target = make(route.path);
        const res = await raw(route.method, target, { body: route.method === "GET" ? "" : JSON.stringify({ username: "evil", role: "supervisor", decision: "cleared" }) });
        // refused by the gate: malformed (400), sign in (401 / 303 to /signin), not found / not allowed; a trailing slash is redirected
        expect([400, 401, 303, 308, 403, 404, 405, 411, 413], `${route.method} ${target} → ${res.status}`).toContain(res.status);
        if (res.status === 303 || res.status === 308) expect(res.headers, target).toMatch(/\r\nlocation: (\/signin\?|\/)/);
        expect(res.headers, `${target} reached a handler`).not.toContain("x-mp-refused-by");
      }),
      { numRuns: 400 },
    );
  });

  test("the reviewer's exact requests are refused and create nothing", async ({ request }) => {
    for (const t of ["/api/users#/../../api/receiver/x", "/api/streams/0123456789abcdef0123456789abcdef/close#/../../../../api/receiver/x", "/api/audit#/../../api/receiver/x"]) {
      expect((await raw("POST", t, { body: JSON.stringify({ username: "evil1", role: "supervisor" }) })).status, t).toBe(400);
    }
    for (const t of ["/api/audit#/../../api/receiver/x", "/api/users#/../../api/receiver/x", "/api/status#/../../api/receiver/x"]) expect((await raw("GET", t)).status, t).toBe(400);
    const signin = await request.post("/api/auth/signin", { data: { username: "evil1", password: "whatever-1234" } });
    expect(signin.status()).toBe(401);
  });

  test("engine.io: no session, no handshake (no sid is created)", async () => {
    const res = await raw("GET", "/socket.io/?EIO=4&transport=polling");
    expect(res.status).toBe(403);
    expect(res.body).not.toContain('"sid"');
  });

  for (const next of ["/.//evil.example/phish", "/..//evil.example/phish", "//evil.example/phish", "https://evil.example/phish", "/\\evil.example/phish"]) {
    test(`sign-in with next=${next} stays on this origin`, async ({ page, baseURL }) => {
      await page.goto(`/signin?next=${encodeURIComponent(next)}`);
      await page.getByLabel("Username").fill(SUPERVISOR.username);
      await page.getByLabel("Password").fill(SUPERVISOR.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByTestId("signin-form")).toHaveCount(0);
      await page.waitForLoadState();
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    });
  }
});

test("dashboard bodies are bounded: a signed-in JSON body over 64 KB is refused with 413 before it is read", async () => {
  const state = JSON.parse(fs.readFileSync(SUPERVISOR_STATE, "utf8")) as { cookies: Array<{ name: string; value: string }> };
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const csrf = decodeURIComponent(state.cookies.find((c) => c.name === "mp_csrf")?.value ?? "");
  const big = JSON.stringify({ url: "x".repeat(200 * 1024) });
  const res = await raw("POST", "/api/files", { body: big, headers: { cookie, "x-csrf-token": csrf, origin: `http://127.0.0.1:${port}` } });
  expect(res.status).toBe(413);
  const chunked = await raw("POST", "/api/streams", { body: "", headers: { cookie, "x-csrf-token": csrf, "transfer-encoding": "chunked" } });
  expect([400, 411]).toContain(chunked.status);
});
