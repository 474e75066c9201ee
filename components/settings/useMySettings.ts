"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import { useUser } from "@/components/auth/UserContext";
import { effectiveSettings, type Exposure, type MySettingsAnswer, type TeamSettings, type UserSettings, type UserSettingsPatch } from "@/lib/user-settings";

export const MY_SETTINGS_KEY = ["me", "settings"] as const;

/** The signed-in user's settings as the server holds them (they follow the user to any browser). */
export function useMySettingsQuery() {
  const user = useUser();
  return useQuery({
    queryKey: MY_SETTINGS_KEY,
    queryFn: ({ signal }) => apiJson<MySettingsAnswer>("/api/me/settings", { signal }),
    enabled: Boolean(user && !user.mustChangePassword),
    staleTime: 60_000,
  });
}

/** The effective settings; until the server answers, the built-in defaults of the user's role (blurred for reviewers). */
export function useMySettings(): UserSettings {
  const user = useUser();
  const q = useMySettingsQuery();
  return q.data?.settings ?? effectiveSettings(user?.role ?? "reviewer", null, null);
}

/**
 * PUT /api/me/settings with the change shown at once (set before the request leaves, so a checkbox follows the click)
 * and rolled back if the server refuses it.
 */
export function useSaveMySettings() {
  const client = useQueryClient();
  const user = useUser();
  const m = useMutation({
    mutationFn: (patch: UserSettingsPatch) => apiJson<MySettingsAnswer>("/api/me/settings", { method: "PUT", body: patch }),
    onSuccess: (data) => client.setQueryData(MY_SETTINGS_KEY, data),
  });
  const mutate = (patch: UserSettingsPatch) => {
    // a fetch already on its way (a settings event from another tab or the team default) must not land over the change
    void client.cancelQueries({ queryKey: MY_SETTINGS_KEY });
    const before = client.getQueryData<MySettingsAnswer>(MY_SETTINGS_KEY);
    if (before && user) {
      const own: UserSettingsPatch = { alerts: { ...before.own.alerts, ...patch.alerts }, wellness: { ...before.own.wellness, ...patch.wellness } };
      client.setQueryData<MySettingsAnswer>(MY_SETTINGS_KEY, { ...before, own, settings: effectiveSettings(user.role, before.team, own) });
    }
    m.mutate(patch, { onError: () => before && client.setQueryData(MY_SETTINGS_KEY, before) });
  };
  return { mutate, isError: m.isError, error: m.error, isPending: m.isPending };
}

/** PUT /api/settings/team (supervisors). */
export function useSaveTeamSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (team: TeamSettings) => apiJson<{ team: TeamSettings }>("/api/settings/team", { method: "PUT", body: team }),
    onSuccess: () => void client.invalidateQueries({ queryKey: MY_SETTINGS_KEY }),
  });
}

/** POST /api/me/exposure: a REJECT incident viewed; today's count lands in the settings query. */
export function useRecordExposure() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (incidentId: string) => apiJson<{ exposure: Exposure; counted: boolean }>("/api/me/exposure", { method: "POST", body: { incidentId } }),
    onSuccess: (r) => {
      const before = client.getQueryData<MySettingsAnswer>(MY_SETTINGS_KEY);
      if (before) client.setQueryData<MySettingsAnswer>(MY_SETTINGS_KEY, { ...before, exposure: r.exposure });
    },
  });
}
