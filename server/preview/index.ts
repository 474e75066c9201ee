// The live preview and evidence clips (docs/live-streams.md "Live preview and evidence clips"). The engine side imports this
// module (stream-task.ts), which also publishes the serving functions for the dashboard's route handlers on
// globalThis, like server/registry.ts: Next bundles route handlers apart, and this keeps ffmpeg code out of them.
import { previewInfo, serveClip, servePreviewFile } from "./serve";

export { PreviewRecorder } from "./recorder";
export type { PreviewPlace } from "./serve";
export type { PreviewClip, PreviewInfo } from "./info";

export interface PreviewServing {
  info: typeof previewInfo;
  file: typeof servePreviewFile;
  clip: typeof serveClip;
}

/** The key route handlers read (app/api/preview/place.ts). */
export const PREVIEW_SERVING_KEY = "moderation-platform.preview-serving";

(globalThis as Record<symbol, PreviewServing>)[Symbol.for(PREVIEW_SERVING_KEY)] = { info: previewInfo, file: servePreviewFile, clip: serveClip };
