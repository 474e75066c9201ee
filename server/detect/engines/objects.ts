// Objects / animals / plants: human's CenterNet (COCO 80) → business labels via object-map.ts; "person" → persons[].
import type { Human, ObjectResult } from "@vladmandic/human";
import { confidenceLevel } from "../face-labels";
import { objectGroupForClass, type ObjectGroup } from "../object-map";
import { POLICY } from "../policy";
import type { DetectedObject, DetectedPerson } from "../types";
import type { BusinessHit, Engine, EngineOutput, Frame, FrameRequest } from "./engine";
import { loadHuman, runHuman, toLocation } from "./human";

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

export interface FoundObject {
  label: string;
  score: number;
  location: [number, number, number, number];
}

/** One business label per (requested group, COCO class) found, with every box of that class. */
export function objectBusinessHits(found: readonly FoundObject[], business: ReadonlySet<string>): BusinessHit[] {
  const byClass = new Map<string, { group: ObjectGroup; objects: DetectedObject[] }>();
  for (const o of found) {
    const group = objectGroupForClass(o.label);
    if (!group || !business.has(group.type) || o.score < POLICY.objects.minScore) continue;
    const slot = byClass.get(o.label) ?? { group, objects: [] };
    slot.objects.push({ id: String(slot.objects.length), name: o.label, location: o.location, probability: r3(o.score) });
    byClass.set(o.label, slot);
  }
  return [...byClass.entries()].map(([cls, { group, objects }]) => {
    const p = Math.max(...objects.map((o) => o.probability));
    return {
      labels: [group.label1, group.label2, group.classes[cls]] as [string, string, string],
      probability: p,
      confidenceLevel: confidenceLevel(p, POLICY.objects.levels),
      detail: { objects: objects.slice(0, POLICY.objects.reported) },
    };
  });
}

export class ObjectEngine implements Engine {
  readonly name = "objects";
  readonly imgTypes = [] as const;
  private human: Human | undefined;

  async init(): Promise<void> {
    this.human = await loadHuman("objects");
  }

  async run(frame: Frame, _requested: ReadonlySet<string>, req: FrameRequest): Promise<EngineOutput> {
    if (!this.human) throw new Error("object engine not initialised");
    const px = await frame.rgb();
    const result = await runHuman(this.human, px, { faces: false, description: false, objects: true });
    const found: FoundObject[] = result.object
      .map((o: ObjectResult) => ({ label: o.label, score: o.score, location: toLocation(o.box, px, frame.width, frame.height) }))
      .sort((a, b) => b.score - a.score);
    const frameArea = frame.width * frame.height;
    const people = found.filter((o) => o.label === "person" && o.score >= POLICY.objects.minScore);
    const persons: DetectedPerson[] = people.slice(0, POLICY.objects.reported).map((o, i) => ({
      id: String(i),
      location: o.location,
      probability: r3(o.score),
      person_ratio: Math.round((((o.location[2] - o.location[0]) * (o.location[3] - o.location[1])) / frameArea) * 10000) / 10000,
    }));
    const scores: Record<string, number> = {};
    for (const o of found) scores[o.label] = Math.max(scores[o.label] ?? 0, r3(o.score));
    return { hits: [], business: objectBusinessHits(found, req.businessTypes), persons, personNum: people.length, scores };
  }

  async close(): Promise<void> {}
}
