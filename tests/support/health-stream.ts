import { TEST_KEY } from "./app";

/**
 * A video stream for the health tests: QR frames every second, and an audio type with a cheap engine
 * (fingerprints) so the pull carries the audio its level is read from; with the stream-end.
 */
export async function startHealthStream(svc: { post: (p: string, body: unknown) => Promise<Record<string, unknown>> }, url: string, callback: string): Promise<Record<string, unknown>> {
  return svc.post("/videostream/v4", {
    accessKey: TEST_KEY,
    appId: "default",
    eventId: "VIDEOSTREAM",
    imgType: "QRCODE",
    audioType: "ANTHEN",
    imgCallback: callback,
    audioCallback: callback,
    data: { streamType: "NORMAL", url, tokenId: "u1", detectFrequency: 1, returnFinishInfo: 1 },
  });
}
