// Worker-thread entry in plain JS: `--import tsx` inherited through execArgv does not make Node 20 load a .ts
// worker entry ("Unknown file extension .ts"), so register tsx's ESM hooks here, then import the TS worker.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
