// RTC provider objects (docs/api.md §2.7). One schema serves both products unless the products differ.
// Decision: credentials (tokens, userSig) accept up to 1024 chars: real Agora/TRTC/Zego tokens exceed the vendor's 64/128.
import { z } from "zod";
import { intRange } from "./common";

const CREDENTIAL_MAX = 1024;
const Credential = z.string().min(1).max(CREDENTIAL_MAX);
const SafeId = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+$/, "only letters, digits, _ and - allowed");
const UINT32_MAX = 4294967295;

export const SUBSCRIBE_MODES = ["AUTO", "TRUSTED", "UNTRUSTED"] as const;
export const SubscribeMode = z.enum(SUBSCRIBE_MODES);

/** Trusted/untrusted uid lists: ints (video doc) or strings (audio doc); ≤17 uids. */
export const UserIdList = z.union([z.array(z.int()).max(17), z.array(z.string()).max(17)]);

const subscribeShape = {
  subscribeMode: SubscribeMode.optional(),
  trustedUserIdList: UserIdList.optional(),
  untrustedUserIdList: UserIdList.optional(),
};

/** UNTRUSTED mode audits only the untrusted list, so it must name someone. */
function checkSubscribe(
  v: { subscribeMode?: string; untrustedUserIdList?: readonly unknown[] },
  ctx: z.RefinementCtx,
): void {
  if (v.subscribeMode === "UNTRUSTED" && (v.untrustedUserIdList?.length ?? 0) === 0) {
    ctx.addIssue({ code: "custom", path: ["untrustedUserIdList"], message: "must be a non-empty list when subscribeMode is UNTRUSTED" });
  }
}

export const AgoraParam = z
  .object({
    appId: z.string().min(1).max(64).describe("Agora's app id, not ours"),
    channel: z.string().min(1).max(64),
    token: Credential.optional(),
    uid: intRange(0, UINT32_MAX).optional(),
    channelProfile: z.literal([0, 1]).optional(),
    ...subscribeShape,
    enableH265Support: z.boolean().optional(),
    enableIntraRequest: z.boolean().optional(),
    isMixingEnabled: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    checkSubscribe(v, ctx);
    if (v.token !== undefined && v.uid === undefined) {
      ctx.addIssue({ code: "custom", path: ["uid"], message: "required when token is given" });
    }
  });
export type AgoraParam = z.infer<typeof AgoraParam>;

export const TrtcParam = z
  .object({
    sdkAppId: z.int(),
    demoSences: z.literal([2, 4], { error: "must be 2 (split) or 4 (mixed)" }),
    userId: SafeId(32),
    userSig: Credential,
    roomId: intRange(1, 4294967294).optional(),
    strRoomId: SafeId(128).optional(),
    appScene: z.literal([0, 1]).optional(),
    uid: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.roomId === undefined && v.strRoomId === undefined) {
      ctx.addIssue({ code: "custom", path: ["roomId"], message: "one of roomId / strRoomId is required" });
    }
  });
export type TrtcParam = z.infer<typeof TrtcParam>;

const zegoShape = {
  tokenId: Credential.describe("Zego identity token, new per request"),
  roomId: z.string().min(1).max(64).optional(),
};
/** Video stream: roomId required. */
export const VideoZegoParam = z.object({ ...zegoShape, roomId: z.string().min(1).max(64) });
export type VideoZegoParam = z.infer<typeof VideoZegoParam>;
/** Audio stream: roomId and/or streamId; isMixingEnabled=false needs roomId and forbids streamId. */
export const AudioZegoParam = z
  .object({ ...zegoShape, streamId: z.string().min(1).optional(), isMixingEnabled: z.boolean().optional() })
  .superRefine((v, ctx) => {
    if (v.roomId === undefined && v.streamId === undefined) {
      ctx.addIssue({ code: "custom", path: ["roomId"], message: "one of roomId / streamId is required" });
    }
    if (v.isMixingEnabled === false) {
      if (v.roomId === undefined) ctx.addIssue({ code: "custom", path: ["roomId"], message: "required when isMixingEnabled is false" });
      if (v.streamId !== undefined) ctx.addIssue({ code: "custom", path: ["streamId"], message: "not allowed when isMixingEnabled is false" });
    }
  });
export type AudioZegoParam = z.infer<typeof AudioZegoParam>;

export const VolcParam = z
  .object({
    appId: z.string().min(1).max(64).describe("Volcano Engine's app id"),
    roomId: z.string().min(1).max(128),
    token: Credential,
    userId: z.string().min(1).max(32),
    ...subscribeShape,
  })
  .superRefine(checkSubscribe);
export type VolcParam = z.infer<typeof VolcParam>;

/** aliParam.userId: int in the video JSON, string elsewhere; both accepted and kept as sent. */
const AliUserId = z.union([z.string().min(1).max(32), z.int()]);
const aliShape = {
  room: z.string().min(1).max(64),
  token: Credential,
  isMixingEnabled: z.boolean().optional(),
};
export const VideoAliParam = z.object({ ...aliShape, userId: AliUserId.optional() });
export type VideoAliParam = z.infer<typeof VideoAliParam>;
export const AudioAliParam = z.object({ ...aliShape, userId: AliUserId });
export type AudioAliParam = z.infer<typeof AudioAliParam>;

export const GinParam = z.object({
  tokenId: z.string().min(1),
  roomId: z.string().min(1),
  ip: z.string().min(1),
  port: z.string().min(1),
  isMixingEnabled: z.boolean().optional(),
});
export type GinParam = z.infer<typeof GinParam>;

export const YunxinParam = z.object({
  token: Credential,
  cname: z.string().min(1),
  uid: z.int(),
  appKey: z.string().min(1),
});
export type YunxinParam = z.infer<typeof YunxinParam>;

/** streamType → the `data` key holding its provider object. */
export const STREAM_PARAM_KEY = {
  AGORA: "agoraParam",
  TRTC: "trtcParam",
  ZEGO: "zegoParam",
  VOLC: "volcParam",
  ALI: "aliParam",
  GIN: "ginParam",
  YUNXIN: "yunxinParam",
} as const;

/**
 * `data.headers` (streamType WEBRTC only, this service's extension): the bearer the WHEP endpoint wants, sent on the
 * WHEP POST and DELETE. A credential: kept apart from the stored request and echoed as REDACTED_BEARER, never as sent.
 */
export const WhepHeaders = z
  .strictObject({
    Authorization: z.string().max(4096).regex(/^Bearer [\x21-\x7e]+$/, "must be `Bearer <token>` (printable ASCII, no spaces)"),
  })
  .describe("Extension beyond the vendor v4 contract (clients written for the vendor can ignore it): streamType WEBRTC only. `Authorization: Bearer <token>` sent on the WHEP POST and DELETE; stored apart from the task and echoed in `requestParams` as `Bearer ***`, never as sent.");
export type WhepHeaders = z.infer<typeof WhepHeaders>;
/** How `data.headers.Authorization` reads in every echo, the stored request, the dashboard and logs. */
export const REDACTED_BEARER = "Bearer ***";

/** Shared `data` rule: NORMAL needs url; WEBRTC an http(s) WHEP url; an RTC streamType needs its *Param object. */
export function checkStreamSource(
  data: { streamType: string; url?: string } & Record<string, unknown>,
  ctx: z.RefinementCtx,
): void {
  if (data.headers !== undefined && data.streamType !== "WEBRTC") ctx.addIssue({ code: "custom", path: ["headers"], message: "only allowed for streamType WEBRTC (the WHEP endpoint's bearer)" });
  if (data.streamType === "NORMAL") {
    if (data.url === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "required for streamType NORMAL" });
    return;
  }
  if (data.streamType === "WEBRTC") {
    if (data.url === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "required for streamType WEBRTC (a WHEP endpoint)" });
    else if (!/^https?:\/\//i.test(data.url)) ctx.addIssue({ code: "custom", path: ["url"], message: "must be an http or https WHEP endpoint for streamType WEBRTC" });
    return;
  }
  const key = STREAM_PARAM_KEY[data.streamType as keyof typeof STREAM_PARAM_KEY];
  if (key !== undefined && data[key] === undefined) {
    ctx.addIssue({ code: "custom", path: [key], message: `required for streamType ${data.streamType}` });
  }
}
