// Prohibited-image hash bank: the frame's pHash (and its border-trimmed pHash) against the bank's entries.
import type { HashBankReader } from "../hash-bank";
import { frameHashes } from "../phash";
import { POLICY } from "../policy";
import type { Engine, EngineOutput, Frame, FrameRequest, Hit } from "./engine";

export class HashEngine implements Engine {
  readonly name = "hash";
  readonly imgTypes = ["VIOLENT"] as const;

  constructor(private readonly bank?: HashBankReader) {}

  async init(): Promise<void> {}

  async run(frame: Frame, requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    const maxDistance = req.thresholds.loosest("hash");
    if (!this.bank || this.bank.size === 0 || maxDistance === null) return { hits: [] };
    const hashes = await frameHashes(frame.jpeg);
    const m = this.bank.match(hashes, maxDistance);
    const level = m ? req.thresholds.level("hash", m.distance) : null;
    if (!m || !level) return { hits: [] };
    const p = POLICY.hash;
    const hit: Hit = {
      // a bank hit counts under whichever imgType was asked for; VIOLENT when it was
      imgType: requested.has("VIOLENT") ? "VIOLENT" : [...requested][0] ?? "VIOLENT",
      riskLevel: level,
      labels: [p.label1, p.label2, m.list],
      probability: Math.round((1 - m.distance / 64) * 1000) / 1000,
      riskSource: p.riskSource,
      hashMatch: m,
    };
    return { hits: [hit] };
  }

  async close(): Promise<void> {}
}
