import { z } from "zod";
import { answer, body, identity, problem } from "../auth/api";
import { AuthError } from "../auth";
import { can } from "../../lib/roles";
import { TeamSettingsSchema, UserSettingsPatchSchema, effectiveSettings, type MySettingsAnswer } from "../../lib/user-settings";
import type { SettingsStore } from "./store";

/**
 * GET/PUT /api/me/settings (the caller's own alert and wellness settings), GET/PUT /api/settings/team (the team's
 * wellness default; supervisors change it) and POST /api/me/exposure (a REJECT incident viewed: today's count).
 * The gate's role table (server/auth/access.ts) and guard() check first; the role is checked here again.
 */

const Exposure = z.strictObject({ incidentId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/) });

export interface SettingsDeps {
  store: SettingsStore;
  /** the incident's level, or null when there is no such incident */
  incidentLevel: (id: string) => Promise<string | null>;
}

export function createSettingsApi(d: SettingsDeps) {
  const mine = async (userId: string, role: Parameters<typeof effectiveSettings>[0]): Promise<MySettingsAnswer> => {
    const [own, team, exposure] = await Promise.all([d.store.own(userId), d.store.team(), d.store.exposure(userId)]);
    return { settings: effectiveSettings(role, team, own), own, team, exposure };
  };
  const run = (f: (req: Request) => Promise<Response>) => async (req: Request) => {
    try {
      return await f(req);
    } catch (err) {
      return problem(err);
    }
  };
  return {
    getMine: run(async (req) => {
      const me = identity(req);
      return answer(await mine(me.id, me.role));
    }),
    putMine: run(async (req) => {
      const me = identity(req);
      await d.store.saveOwn(me.id, await body(req, UserSettingsPatchSchema));
      return answer(await mine(me.id, me.role));
    }),
    getTeam: run(async (req) => {
      identity(req);
      return answer({ team: await d.store.team() });
    }),
    putTeam: run(async (req) => {
      const me = identity(req);
      if (!can(me.role, "users:manage")) throw new AuthError(`your role (${me.role}) may not set the team default`, 403);
      return answer({ team: await d.store.saveTeam(await body(req, TeamSettingsSchema), me.username) });
    }),
    expose: run(async (req) => {
      const me = identity(req);
      const { incidentId } = await body(req, Exposure);
      const level = await d.incidentLevel(incidentId);
      if (level === null) throw new AuthError("no such incident", 404);
      // only REJECT items count towards the break reminder; anything else answers today's count unchanged
      const exposure = level === "REJECT" ? await d.store.expose(me.id, incidentId) : await d.store.exposure(me.id);
      return answer({ exposure, counted: level === "REJECT" });
    }),
  };
}

export type SettingsApi = ReturnType<typeof createSettingsApi>;
