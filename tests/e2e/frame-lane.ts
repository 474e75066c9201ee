// The stream page's frame lane against the server's frames, shared by the specs that skip frames (detectStep,
// backlog) and must never show a frame that was not checked as PASS.
import { expect, type Locator } from "@playwright/test";

export interface ServerFrame {
  id: string;
  level: string;
  checked: boolean;
}

/**
 * The lane holds every frame (it draws only the cards in view); each drawn card is a frame the server holds, with
 * its checked state and level, an unchecked one reading NOT CHECKED and never PASS; "show only NOT CHECKED" leaves
 * exactly the unchecked ones (the chip is left on). Returns the lane.
 */
export async function expectFrameLaneAgrees(timeline: Locator, frames: ServerFrame[]): Promise<Locator> {
  const lane = timeline.getByTestId("frame-scroller").locator("ul");
  await expect(lane).toHaveAttribute("data-total", String(frames.length));
  const byId = new Map(frames.map((f) => [f.id, f]));
  const drawnCards = () => timeline.getByTestId("frame-event").evaluateAll((els) => els.map((el) => ({ id: el.getAttribute("data-event-id") ?? "", checked: el.getAttribute("data-checked"), level: el.getAttribute("data-level"), text: el.textContent ?? "" })));
  const drawn = await drawnCards();
  expect(drawn.length).toBeGreaterThan(0);
  for (const d of drawn) {
    const f = byId.get(d.id);
    expect(f, `card ${d.id} is a frame the server holds`).toBeDefined();
    expect(d.checked).toBe(String(f!.checked));
    expect(d.level).toBe(f!.checked ? f!.level : "NOT_CHECKED");
    if (!f!.checked) {
      expect(d.text).toContain("NOT CHECKED");
      expect(d.text).not.toContain("PASS");
    }
  }
  await timeline.getByTestId("not-checked-chip").click();
  await expect(lane).toHaveAttribute("data-total", String(frames.filter((f) => !f.checked).length));
  const onlyUnchecked = await drawnCards();
  expect(onlyUnchecked.length).toBeGreaterThan(0);
  for (const d of onlyUnchecked) {
    expect(d.checked).toBe("false");
    expect(d.level).toBe("NOT_CHECKED");
    expect(byId.get(d.id)?.checked).toBe(false);
  }
  return lane;
}
