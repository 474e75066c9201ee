// Per-user alert and wellness settings (issue 26 items 2 and 4): the shape, the built-in defaults per role, and how
// built-in ← team default ← the user's own choices merge. Pure: the server stores the parts, the browser reads the result.
import { z } from "zod";
import type { Role } from "./roles";

export const ALERT_LEVELS = ["REJECT", "REVIEW"] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

const labelSlug = z.string().regex(/^[a-z0-9_]{1,40}$/);

export const AlertPrefsSchema = z.strictObject({
  /** no alert at all (the bell still counts them) */
  off: z.boolean(),
  /** a docked toast with the peak frame and one-click actions */
  toast: z.boolean(),
  /** a short Web Audio beep when an alert is raised or worsens */
  sound: z.boolean(),
  /** a desktop notification (the browser asks for permission) */
  desktop: z.boolean(),
  /** which levels alert */
  levels: z.array(z.enum(ALERT_LEVELS)).max(2),
  /** riskLabel1 slugs that alert; empty: every category */
  categories: z.array(labelSlug).max(40),
});
export type AlertPrefs = z.infer<typeof AlertPrefsSchema>;

export const WellnessSchema = z.strictObject({
  /** frames, thumbnails, previews and clips blurred and greyscale until revealed (hover, press, focus, `v`) */
  blur: z.boolean(),
  /** incident audio starts muted */
  muteAudio: z.boolean(),
  /** a break reminder after this many REJECT items viewed today, and every as many after; 0: never */
  breakAfter: z.number().int().min(0).max(10_000),
});
export type Wellness = z.infer<typeof WellnessSchema>;

export interface UserSettings {
  alerts: AlertPrefs;
  wellness: Wellness;
}

/** What a user may store: any part of either group (missing fields follow the team default, then the built-in one). */
export const UserSettingsPatchSchema = z.strictObject({
  alerts: AlertPrefsSchema.partial().optional(),
  wellness: WellnessSchema.partial().optional(),
});
export type UserSettingsPatch = z.infer<typeof UserSettingsPatchSchema>;

/** What a supervisor sets for the team: the wellness defaults (a user's own choice still wins). */
export const TeamSettingsSchema = z.strictObject({ wellness: WellnessSchema.partial() });
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

export const DEFAULT_ALERTS: AlertPrefs = { off: false, toast: true, sound: false, desktop: false, levels: ["REJECT"], categories: [] };

/** The built-in wellness default: reviewers (who look at flagged media all day) get blurred media; others see it plain. */
export function builtInWellness(role: Role): Wellness {
  return { blur: role === "reviewer", muteAudio: true, breakAfter: 50 };
}

/**
 * The team default applies to reviewers only (a supervisor sets it for the people who review); anyone's own
 * choices win over both.
 */
export function effectiveSettings(role: Role, team: TeamSettings | null, own: UserSettingsPatch | null): UserSettings {
  const teamPart = role === "reviewer" ? (team?.wellness ?? {}) : {};
  return {
    alerts: { ...DEFAULT_ALERTS, ...(own?.alerts ?? {}) },
    wellness: { ...builtInWellness(role), ...teamPart, ...(own?.wellness ?? {}) },
  };
}

/** Merges a stored patch with a new one (a later field wins; groups merge field by field). */
export function mergePatch(a: UserSettingsPatch | null, b: UserSettingsPatch): UserSettingsPatch {
  const out: UserSettingsPatch = {};
  const alerts = { ...(a?.alerts ?? {}), ...(b.alerts ?? {}) };
  const wellness = { ...(a?.wellness ?? {}), ...(b.wellness ?? {}) };
  if (Object.keys(alerts).length) out.alerts = alerts;
  if (Object.keys(wellness).length) out.wellness = wellness;
  return out;
}

/** A stored row read back: anything that no longer validates (an older shape) is dropped rather than trusted. */
export function parseStoredPatch(v: unknown): UserSettingsPatch {
  const r = UserSettingsPatchSchema.safeParse(v);
  return r.success ? r.data : {};
}

export function parseStoredTeam(v: unknown): TeamSettings {
  const r = TeamSettingsSchema.safeParse(v);
  return r.success ? r.data : { wellness: {} };
}

/** GET /api/me/settings */
export interface MySettingsAnswer {
  settings: UserSettings;
  own: UserSettingsPatch;
  team: TeamSettings;
  exposure: Exposure;
}

/** REJECT items this user viewed today (UTC day), and whether a break is due. */
export interface Exposure {
  day: string;
  count: number;
}

/** Whether the reminder shows: at every multiple of breakAfter reached and not yet acknowledged. */
export function breakDue(count: number, breakAfter: number, acknowledgedAt: number): boolean {
  if (breakAfter <= 0 || count < breakAfter) return false;
  return Math.floor(count / breakAfter) > Math.floor(acknowledgedAt / breakAfter);
}

export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);
