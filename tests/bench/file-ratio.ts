// End-to-end file benchmark: processing time ÷ video duration for a 60 s 720p video with audio, default cadence.
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import { startTestService, TEST_KEY } from "../support/app";

export async function benchFileRatio(): Promise<Record<string, number>> {
  const file = await makeVideo({ name: "bench-60s-720p", durationSec: 60, width: 1280, height: 720, fps: 25, audio: "tone", qr: { text: "https://spam.example/bench", fromSec: 20, toSec: 30 }, text: { content: "Add WeChat: maifen888 cheap followers", fromSec: 40, toSec: 50 } });
  const web = await startStaticServer(mediaDir());
  const svc = await startTestService();
  try {
    // warm the detector models on a first file so the figure is the steady state
    const url = `${web.url}/${file.split("/").pop()}`;
    const runOnce = async (btId: string) => {
      const started = Date.now();
      const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "bench", eventId: "video", imgType: "QRCODE_ADVERT_IMGTEXTRISK_EROTIC", audioType: "POLITY", data: { btId, url } });
      if (ack.code !== 1100) throw new Error(`submit failed: ${JSON.stringify(ack)}`);
      for (;;) {
        const q = await svc.post("/video/query/v4", { accessKey: TEST_KEY, btId });
        if (q.code === 1100) return { ms: Date.now() - started, frames: (q.auxInfo as { billingImgNum: number }).billingImgNum };
        if (q.code !== 1101) throw new Error(`query failed: ${JSON.stringify(q)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await runOnce("warm-up");
    const run = await runOnce("measured");
    return { videoSec: 60, processingSec: run.ms / 1000, ratio: Math.round((run.ms / 1000 / 60) * 1000) / 1000, framesCaptured: run.frames, vendorRatio: 1 / 3 };
  } finally {
    await svc.close();
    await web.close();
  }
}
