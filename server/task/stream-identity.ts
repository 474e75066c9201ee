/** What makes two submissions "the same running stream" (docs/api.md §1.4 decisions). */
export function streamIdentity(data: Record<string, unknown>): string {
  const t = String(data.streamType ?? "NORMAL");
  const p = (name: string) => (data[name] ?? {}) as Record<string, unknown>;
  const join = (...parts: unknown[]) => `${t}:${parts.map((x) => (x === undefined || x === null ? "" : String(x))).join("|")}`;
  switch (t) {
    case "AGORA":
      return join(p("agoraParam").appId, p("agoraParam").channel, p("agoraParam").uid);
    case "TRTC": {
      const q = p("trtcParam");
      return join(q.sdkAppId, q.uid ?? q.userId, q.roomId ?? q.strRoomId);
    }
    case "ZEGO":
      return join(p("zegoParam").roomId, p("zegoParam").streamId);
    case "VOLC":
      return join(p("volcParam").appId, p("volcParam").roomId, p("volcParam").userId);
    case "ALI":
      return join(p("aliParam").room);
    case "GIN":
      return join(p("ginParam").roomId);
    case "YUNXIN":
      return join(p("yunxinParam").appKey, p("yunxinParam").cname);
    default:
      return join(data.url);
  }
}
