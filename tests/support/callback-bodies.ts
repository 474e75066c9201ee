// Callback bodies as the service sends them, for tests that feed the dashboard's receivers directly.
export type Level = "PASS" | "REVIEW" | "REJECT";

/** A video-stream frame result (§3.2): PASS is "normal" from the model, REVIEW/REJECT an ad from a list; detectType 2 = not checked. */
export function frameResultBody(requestId: string, n: number, level: Level, o: { detectType?: 1 | 2; imgUrl?: string } = {}) {
  return {
    code: 1100,
    message: "Success",
    requestId: `${requestId}_v${n}`,
    contentType: 1,
    statCode: 0,
    frameDetail: {
      imgUrl: o.imgUrl ?? "http://127.0.0.1:9/media/f.jpg",
      riskLevel: level,
      riskLabel1: level === "PASS" ? "normal" : "ad",
      riskLabel2: level === "PASS" ? "" : "ad",
      riskLabel3: level === "PASS" ? "" : "ad",
      riskDescription: level === "PASS" ? "正常" : "广告",
      riskDetail: { riskSource: level === "PASS" ? 1000 : 1001 },
      allLabels: [],
      businessLabels: [],
      auxInfo: { beginProcessTime: 1, finishProcessTime: 2, imgTime: "2026-01-01 10:00:00.000", ...(o.detectType ? { detectType: o.detectType } : {}) },
    },
  };
}
