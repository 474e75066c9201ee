import { EventEmitter } from "node:events";
import path from "node:path";
import type { Config } from "./config";
import { Dispatcher } from "./callback/dispatcher";
import { callbackSigner } from "./callback/signer";
import { createDetectPool, type Capability, type CapabilityView, type DetectPool } from "./detect";
import { createAudioDetector, fileReferenceTracks, type AudioDetector } from "./detect/audio";
import { callInProcess, handleService } from "./request/service-routes";
import { DASHBOARD_PRINCIPAL } from "./service/principals";
import { AccessKeys, dataDirSecret, resolveAccessKeys } from "./service/access-keys";
import { MediaUrls } from "./service/media-urls";
import { withMeasuredScores } from "./service/measured";
import { openStore, type Store } from "./store/db";
import type { EngineContext, EngineEvents } from "./task/context";
import { FileRunner } from "./task/file-runner";
import { StreamRunner } from "./task/stream-runner";
import { createLists } from "./dashboard/lists";
import { checkCallbackTarget } from "./task/url-policy";
import { redactSecrets } from "./service/redact";
import { AUDIO_PACKAGES, missingPackages } from "./setup/debian-packages";
import { StreamLeases } from "./scale/stream-leases";
import type { Engine } from "./engine-api";
import { ownDataDir, privateDir } from "./setup/data-dir";

export type { Engine };

export interface EngineOptions {
  store?: Store;
  detect?: DetectPool;
  audio?: AudioDetector;
  log?: (msg: string) => void;
}

/** The moderation engine (request → task → ingest → detect → callback), independent of Next. */
export async function createEngine(config: Config, opts: EngineOptions = {}): Promise<Engine> {
  const sink = opts.log ?? ((m: string) => console.log(`[engine] ${m}`));
  const log = (m: string) => sink(redactSecrets(m));
  await ownDataDir(config.dataDir, log);
  const mediaRoot = path.join(config.dataDir, "media");
  await privateDir(mediaRoot);
  const store = opts.store ?? (await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }));
  const { keys, generated } = await resolveAccessKeys(config.accessKeys, config.dataDir);
  const media = new MediaUrls(await dataDirSecret(config.dataDir, "media-url"), mediaRoot);
  const detect =
    opts.detect ??
    createDetectPool({ workers: config.detectWorkers, maxBatch: config.detectBatch, dataDir: config.dataDir, galleryDir: path.join(config.dataDir, "face-gallery"), hashBankDir: path.join(config.dataDir, "hash-bank"), keywordsDir: path.join(config.dataDir, "keyword-lists"), policyDir: path.join(config.dataDir, "policy"), ocrReader: config.ocrReader });
  const audio =
    opts.audio ??
    createAudioDetector({
      dataDir: path.join(config.dataDir, "audio"),
      references: fileReferenceTracks(path.join(config.dataDir, "audio-references")),
      keywordsDir: path.join(config.dataDir, "keyword-lists"),
      policyDir: path.join(config.dataDir, "policy"),
      transcriber: config.transcribe ? { kind: "openai", ...config.transcribe } : { kind: config.speechRecogniser },
    });
  let audioDown: string | null = null;
  const AUDIO_GROUPS = new Set(["audioType", "audioBusinessType", "audiostreamType", "audiostreamBusinessType"]);
  const capabilities = (o?: CapabilityView): Capability[] =>
    withMeasuredScores([
      ...detect.capabilities(o).filter((c) => !AUDIO_GROUPS.has(c.group)),
      ...audio.capabilities().map((c) => (audioDown && c.supported && c.type !== "NONE" ? { ...c, supported: false, note: `audio detector unavailable: ${audioDown}` } : c)),
    ]);
  const ownOrigins = new Set<string>();
  const ownMediaOrigins = new Set<string>();
  const ctxRef: { ctx?: EngineContext } = {};
  const dashboardSigningSecret = `whsec_${(await dataDirSecret(config.dataDir, "dashboard-callbacks")).toString("base64")}`;
  const dispatcher = new Dispatcher({
    db: store.db,
    timeScale: config.callbackRetryTimeScale,
    checkTarget: (url) => checkCallbackTarget(ctxRef.ctx!, url),
    sign: callbackSigner(config, store.db, { [DASHBOARD_PRINCIPAL]: dashboardSigningSecret }),
    queueMax: { perKey: config.callbackQueueMax, total: config.callbackQueueMaxTotal },
    log,
  });
  const ctx: EngineContext = { config, store, dispatcher, detect, audio, capabilities, media, mediaRoot, events: new EventEmitter<EngineEvents>(), ownOrigins, ownMediaOrigins, log };
  ctxRef.ctx = ctx;
  const files = new FileRunner(ctx, config.fileConcurrency);
  const streams = new StreamRunner(ctx);
  const lists = createLists({ dataDir: config.dataDir, detect });
  let leases: StreamLeases | null = null;

  const engine: Engine = {
    ctx,
    files,
    streams,
    lists,
    accessKeys: new AccessKeys(keys),
    keys,
    generatedKey: generated,
    dashboardSigningSecret,
    call: (p, body, baseUrl) => callInProcess(engine, p, body, baseUrl),
    handle: (req, res) => handleService(engine, req, res),
    addOwnOrigin: (o) => void ownOrigins.add(o),
    addOwnMediaOrigin: (o) => void ownMediaOrigins.add(o),
    async start() {
      await detect.ready();
      await audio.ready().catch((err: Error) => {
        // e.g. Debian pocketsphinx / fpcalc not installed: audio types are then listed unsupported and not applied
        const missing = missingPackages().filter((m) => (AUDIO_PACKAGES as readonly string[]).includes(m));
        audioDown = missing.length ? `${err.message} (Debian packages missing: install with \`sudo apt-get install -y ${missing.join(" ")}\`)` : err.message;
        log(`audio detector unavailable: ${err.message}`);
      });
      dispatcher.start();
      await files.resume();
      if (!config.scale.on) await streams.resume();
      else if (config.scale.runsStreams) {
        // scaled mode: streams are claimed through leases by the processes that take work (docs/deployment.md)
        leases = new StreamLeases(ctx, streams, { owner: config.scale.workerName, leaseSec: config.scale.streamLeaseSec, capacity: config.streamCapacity, behindWindowMs: config.streamAdmissionWindowSec * 1000 });
        leases.start();
      }
    },
    async stop() {
      await Promise.all([files.stop(), leases ? leases.stop() : streams.stop()]);
      await dispatcher.stop();
      await lists.close();
      await Promise.all([detect.close(), audio.close()]);
      if (!opts.store) await store.close();
    },
  };
  return engine;
}
