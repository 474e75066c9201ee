// Runs the ingest steps in a fresh process, so a test can choose which ffmpeg/ffprobe it finds (env).
import { extractAudioSegments } from "../../server/ingest/audio";
import { planCapture } from "../../server/ingest/capture-plan";
import { resolveFfmpeg, resolveFfprobe } from "../../server/ingest/ffmpeg";
import { extractFrames } from "../../server/ingest/frames";
import { probeMedia } from "../../server/ingest/probe";

const [file, outDir] = process.argv.slice(2);
const info = await probeMedia(file);
const frames = await extractFrames(file, planCapture({ durationSec: info.durationSec, detectFrequency: 2 }), `${outDir}/frames`);
const keyframes = await extractFrames(file, { mode: "keyframes", reason: "child" }, `${outDir}/keyframes`);
const segments = await extractAudioSegments(file, `${outDir}/audio`, { segmentSec: 4 });
process.stdout.write("\n" + JSON.stringify({ ffmpeg: resolveFfmpeg(), ffprobe: resolveFfprobe(), info, frames, keyframes, segments }));
