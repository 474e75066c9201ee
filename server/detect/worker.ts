// Detect worker thread: loads every model once, then answers job messages one frame at a time.
import { parentPort, workerData } from "node:worker_threads";
import { FrameDetector } from "./detector";
import type { FromWorker, ToWorker, WorkerInit } from "./protocol";

const port = parentPort;
if (!port) throw new Error("server/detect/worker.ts must run in a worker thread");
const init = workerData as WorkerInit;
const detector = new FrameDetector(init);
const send = (m: FromWorker): void => port.postMessage(m);
const errorMessage = (id: number, e: unknown): FromWorker => {
  const err = e instanceof Error ? e : new Error(String(e));
  return { type: "error", id, name: err.name, message: err.message };
};

port.on("message", (msg: ToWorker) => {
  if (msg.type === "job") {
    detector
      .detect(msg)
      .then((verdict) => send({ type: "result", id: msg.id, verdict }))
      .catch((e: unknown) => send(errorMessage(msg.id, e)));
  } else if (msg.type === "batch") {
    void detector.detectBatch(msg.jobs, (i, r) => {
      const id = msg.jobs[i].id;
      if ("verdict" in r) send({ type: "result", id, verdict: r.verdict });
      else send(errorMessage(id, r.error));
    });
  } else if (msg.type === "embed") {
    detector
      .embedLargestFace(msg.image)
      .then((embedding) => send({ type: "embedded", id: msg.id, embedding }))
      .catch((e: unknown) => send(errorMessage(msg.id, e)));
  } else if (msg.type === "close") {
    // terminate tesseract's own thread before this one goes
    void detector.close().finally(() => process.exit(0));
  } else if (msg.type === "crash") {
    setImmediate(() => {
      throw new Error("injected worker crash (test hook)");
    });
  }
});

detector
  .init({ dataDir: init.dataDir })
  .then((loadMs) => send({ type: "ready", loadMs }))
  .catch((e: unknown) => {
    send({ type: "init-error", message: e instanceof Error ? e.stack ?? e.message : String(e) });
    process.exit(1);
  });
