// The dashboard's start form moderates a WHEP endpoint (streamType WEBRTC): the Source choice, its URL check, the
// POST /api/streams body and the v4 request it becomes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildStreamInput, INITIAL_STREAM_FORM } from "../../components/streams/form-model";
import { StreamStartInput } from "../../lib/dashboard-schemas";
import { toStreamRequest } from "../../server/dashboard/stream-request";

const dataOf = (b: ReturnType<typeof toStreamRequest>) => (b.ok ? (b.body.data as Record<string, unknown>) : {});

test("Source WebRTC (WHEP): an http(s) endpoint becomes streamType WEBRTC; other schemes are refused with the reason", () => {
  const whep = buildStreamInput({ ...INITIAL_STREAM_FORM, source: "whep", url: " http://localhost:8000/whep/my-stream " }, ["QRCODE"]);
  assert.equal(whep.error, undefined);
  assert.equal(whep.input?.streamType, "WEBRTC");
  assert.equal(whep.input?.url, "http://localhost:8000/whep/my-stream");
  assert.equal(StreamStartInput.safeParse(whep.input).success, true);
  assert.equal(dataOf(toStreamRequest(whep.input!, "http://cb")).streamType, "WEBRTC");

  assert.match(buildStreamInput({ ...INITIAL_STREAM_FORM, source: "whep", url: "rtmp://live.example/app/key" }, ["QRCODE"]).error ?? "", /WHEP endpoint is an http\(s\) URL/);
  assert.match(buildStreamInput({ ...INITIAL_STREAM_FORM, source: "whep", url: "" }, ["QRCODE"]).error ?? "", /WHEP endpoint URL/);
  // an audio stream from a WHEP endpoint too
  const audio = buildStreamInput({ ...INITIAL_STREAM_FORM, kind: "audio", source: "whep", url: "https://rtc.example/whep/room" }, []);
  assert.equal(dataOf(toStreamRequest(audio.input!, "http://cb")).streamType, "WEBRTC");
});

test("Source URL (the default): no streamType sent, the request says NORMAL; an unknown streamType is refused at the edge", () => {
  const normal = buildStreamInput({ ...INITIAL_STREAM_FORM, url: "rtmp://live.example/app/key" }, ["QRCODE"]);
  assert.equal(normal.input?.streamType, undefined);
  assert.equal(dataOf(toStreamRequest(normal.input!, "http://cb")).streamType, "NORMAL");
  assert.equal(StreamStartInput.safeParse({ ...normal.input, streamType: "AGORA" }).success, false);
});
