// Where a decision counts, said where it is taken: the incident queue is the team's record; item decisions feed it.

export type DecisionPlace = "source" | "item" | "incident";

/** One sentence under the decision buttons of each of the three places a reviewer can decide. */
export function decisionScope(place: DecisionPlace, media: "frame" | "segment" = "frame"): string {
  switch (place) {
    case "item":
      return `A decision on this ${media} is carried to the incidents it is a hit of (confirm or escalate decides them; clear does once all their hits are cleared). The incident queue on the Review page is the team's record.`;
    case "source":
      return "A note on the whole stream or file: it decides no incident. Decide incidents in the review queue (the team's record), or a frame's own Review.";
    case "incident":
      return "This is the team's record: the decision is on the incident, whichever frames or segments it spans.";
  }
}
