// The codecs our WebRTC peers (WHIP ingest, WHEP client) negotiate: H.264 (constrained baseline, what OBS and
// Safari send) and VP8 (every browser) video, Opus audio. No RTX/RED/FEC: werift repairs losses with NACK itself.
import { RTCRtpCodecParameters, type PeerConfig } from "werift";

const videoFeedback = [{ type: "nack" }, { type: "nack", parameter: "pli" }, { type: "goog-remb" }];

export function peerCodecs(): PeerConfig["codecs"] {
  return {
    video: [
      new RTCRtpCodecParameters({ mimeType: "video/H264", clockRate: 90000, rtcpFeedback: videoFeedback, parameters: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f" }),
      new RTCRtpCodecParameters({ mimeType: "video/VP8", clockRate: 90000, rtcpFeedback: videoFeedback }),
    ],
    audio: [new RTCRtpCodecParameters({ mimeType: "audio/opus", clockRate: 48000, channels: 2 })],
  };
}

/** One negotiated media line as ffmpeg's SDP demuxer must see it. */
export interface RtpMedia {
  kind: "video" | "audio";
  payloadType: number;
  /** "H264/90000", "VP8/90000", "opus/48000/2" */
  rtpmap: string;
  fmtp?: string;
}

/** The rtpmap name of a negotiated werift codec, null when ffmpeg is not given it (not one of ours). */
export function rtpMediaOf(kind: "video" | "audio", c: RTCRtpCodecParameters): RtpMedia | null {
  const name = c.mimeType.split("/")[1]?.toUpperCase();
  if (kind === "video" && (name === "H264" || name === "VP8")) return { kind, payloadType: c.payloadType, rtpmap: `${name}/90000`, fmtp: name === "H264" ? "packetization-mode=1" : undefined };
  if (kind === "audio" && name === "OPUS") return { kind, payloadType: c.payloadType, rtpmap: "opus/48000/2" };
  return null;
}

/** An SDP ffmpeg reads to receive the media lines on loopback UDP ports (RTCP on port + 1, unused). */
export function ffmpegSdp(lines: Array<RtpMedia & { port: number }>): string {
  const out = ["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=webrtc", "c=IN IP4 127.0.0.1", "t=0 0"];
  for (const m of lines) {
    out.push(`m=${m.kind} ${m.port} RTP/AVP ${m.payloadType}`, `a=rtpmap:${m.payloadType} ${m.rtpmap}`);
    if (m.fmtp) out.push(`a=fmtp:${m.payloadType} ${m.fmtp}`);
  }
  return out.join("\r\n") + "\r\n";
}
