import { and, count, eq } from "drizzle-orm";
import type { Db } from "../store/db";
import { mergePatch, parseStoredPatch, parseStoredTeam, utcDay, type Exposure, type TeamSettings, type UserSettingsPatch } from "../../lib/user-settings";
import { teamSettings, userExposure, userSettings } from "./schema";

const TEAM_ROW = "team";

/** Settings rows: a user's own patch, the team default, and the daily exposure count. */
export function createSettingsStore(db: Db, clock: () => Date = () => new Date()) {
  const store = {
    async own(userId: string): Promise<UserSettingsPatch> {
      const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
      return row ? parseStoredPatch(row.settings) : {};
    },
    /** Merges the patch into what the user stored; returns the stored result. */
    async saveOwn(userId: string, patch: UserSettingsPatch): Promise<UserSettingsPatch> {
      const next = mergePatch(await store.own(userId), patch);
      const at = clock();
      await db.insert(userSettings).values({ userId, settings: next, updatedAt: at }).onConflictDoUpdate({ target: userSettings.userId, set: { settings: next, updatedAt: at } });
      return next;
    },
    async team(): Promise<TeamSettings> {
      const [row] = await db.select().from(teamSettings).where(eq(teamSettings.id, TEAM_ROW));
      return row ? parseStoredTeam(row.settings) : { wellness: {} };
    },
    /** Replaces the team default (a field left out falls back to the built-in default). */
    async saveTeam(team: TeamSettings, username: string): Promise<TeamSettings> {
      const at = clock();
      await db.insert(teamSettings).values({ id: TEAM_ROW, settings: team, updatedBy: username, updatedAt: at }).onConflictDoUpdate({ target: teamSettings.id, set: { settings: team, updatedBy: username, updatedAt: at } });
      return team;
    },
    async exposure(userId: string): Promise<Exposure> {
      const day = utcDay(clock());
      const [row] = await db.select({ n: count() }).from(userExposure).where(and(eq(userExposure.userId, userId), eq(userExposure.day, day)));
      return { day, count: Number(row?.n ?? 0) };
    },
    /** Counts one incident once per day, however often it is opened again. */
    async expose(userId: string, incidentId: string): Promise<Exposure> {
      const at = clock();
      await db.insert(userExposure).values({ userId, day: utcDay(at), incidentId, at }).onConflictDoNothing();
      return store.exposure(userId);
    },
  };
  return store;
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
