import { getRegistry } from "@/server/registry";
import type { PreviewPlace, PreviewServing } from "@/server/preview";
import { json } from "../respond";

/** server/preview/index.ts publishes these where the engine runs (PREVIEW_SERVING_KEY). */
const SERVING = Symbol.for("moderation-platform.preview-serving");

/** The embedded engine's previews and how to serve them; a dashboard driving a remote service has none. */
export function preview(): { place: PreviewPlace; serve: PreviewServing } | null {
  const engine = getRegistry().engine;
  const serve = (globalThis as Record<symbol, PreviewServing | undefined>)[SERVING];
  if (!engine || !serve) return null;
  return { place: { mediaRoot: engine.ctx.mediaRoot, dataDir: engine.ctx.config.dataDir, settings: engine.ctx.config.preview }, serve };
}

export const noPreviewHere = () => json({ error: "live preview needs the embedded service (this dashboard drives a remote one)" }, 404);
