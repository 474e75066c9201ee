import { expect, test } from "@playwright/test";

// The dashboard's receivers must refuse what our service did not send them.
test.describe("callback receivers refuse forged callbacks", () => {
  const body = { code: 1100, message: "Success", requestId: "0".repeat(32), btId: "x", riskLevel: "REJECT", auxInfo: { frameCount: 0, billingImgNum: 0, billingAudioDuration: 0, time: 1 }, frameDetail: [], audioDetail: [] };

  for (const kind of ["file", "stream"]) {
    test(`${kind} receiver: unsigned callback to an unknown secret → 401, nothing stored`, async ({ request }) => {
      // the embedded dashboard's callbacks are always signed with its own secret: the signature is checked first
      const res = await request.post(`/api/receiver/${kind}/not-a-real-secret`, { data: body });
      expect(res.status()).toBe(401);
      expect(await res.json()).toMatchObject({ ok: false, error: expect.stringMatching(/signature/) });
    });
  }

  test("service endpoints answer HTTP 200 with business codes, never 5xx", async ({ request }) => {
    const bad = await request.post("/video/v4", { data: "{oops", headers: { "content-type": "text/plain" } });
    expect(bad.status()).toBe(200);
    expect((await bad.json()).code).toBe(1902);
    const key = await request.post("/videostream/v4", { data: { accessKey: "wrong", appId: "a", eventId: "b" } });
    expect((await key.json()).code).toBe(9101);
  });

  test("the OpenAPI document is served", async ({ request }) => {
    const doc = await (await request.get("/openapi.json")).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/video/v4", "/video/query/v4", "/videostream/v4", "/finish_videostream/v4", "/audiostream/v4", "/finish_audiostream/v4"]));
  });
});
