"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiJson } from "@/components/api/http";
import { useUser } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { Field, inputCls } from "@/components/ui/form";
import { ROLE_DESCRIPTIONS, ROLES, type Role, type SessionUser } from "@/lib/roles";

type UserRow = SessionUser & { disabled: boolean; createdAt: string; external?: string | null };
type Changed = { user: SessionUser; password?: string; message: string };

/** Supervisors: accounts, roles, disable, one-time passwords (shown once). */
export default function UsersPage() {
  const me = useUser();
  const qc = useQueryClient();
  const users = useQuery({ queryKey: ["users"], queryFn: ({ signal }) => apiJson<{ users: UserRow[] }>("/api/users", { signal }) });
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<Role>("moderator");
  const [shown, setShown] = useState<Changed | null>(null);
  const done = (r: Changed) => {
    setShown(r);
    void qc.invalidateQueries({ queryKey: ["users"] });
  };
  const create = useMutation({ mutationFn: () => apiJson<Changed>("/api/users", { method: "POST", body: { username, role } }), onSuccess: (r) => (setUsername(""), done(r)) });
  const change = useMutation({ mutationFn: (c: { id: string; role?: Role; disabled?: boolean; resetPassword?: boolean }) => apiJson<Changed>(`/api/users/${c.id}`, { method: "PATCH", body: { role: c.role, disabled: c.disabled, resetPassword: c.resetPassword } }), onSuccess: done });

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }

  return (
    <div className="space-y-4">
      <Panel title="New account">
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3 p-3" data-testid="user-create">
          <Field label="Username" htmlFor="user-name" className="w-48">
            <input id="user-name" className={inputCls} value={username} onChange={(e) => setUsername(e.target.value)} required pattern="[a-z0-9][a-z0-9._\-]{1,31}" />
          </Field>
          <Field label="Role" htmlFor="user-role" className="w-40">
            <select id="user-role" className={inputCls} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" disabled={create.isPending} className="rounded bg-sky-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-sky-500 disabled:opacity-50">
            Create
          </button>
          <p className="basis-full text-xs text-zinc-500">{ROLE_DESCRIPTIONS[role]}. The account gets a one-time password, shown once here; it must be changed at first sign-in.</p>
        </form>
      </Panel>
      {create.error && <ErrorNote error={create.error} />}
      {change.error && <ErrorNote error={change.error} />}
      {shown && (
        <p role="status" data-testid="user-changed" className="rounded border border-sky-700 bg-sky-950/40 px-3 py-2 text-xs text-sky-100">
          {shown.message}
          {shown.password && (
            <>
              {" "}— one-time password: <code data-testid="one-time-password" className="select-all font-mono text-sm text-white">{shown.password}</code> (hand it over now; it is not shown again)
            </>
          )}
        </p>
      )}
      <Panel title="Accounts">
        {users.error && <ErrorNote error={users.error} />}
        <table className="w-full text-left text-sm">
          <thead className="text-[11px] uppercase tracking-wider text-zinc-500">
            <tr>
              <th className="px-3 py-2">User</th>
              <th className="px-3 py-2">Role</th>
              <th className="px-3 py-2">State</th>
              <th className="px-3 py-2" />
            </tr>
          </thead>
          <tbody>
            {users.data?.users.map((u) => (
              <tr key={u.id} className="border-t border-surface-line" data-testid="user-row" data-username={u.username}>
                <td className="px-3 py-2 font-mono">{u.username}</td>
                <td className="px-3 py-2">
                  <select aria-label={`role of ${u.username}`} className={`${inputCls} w-36`} value={u.role} disabled={u.id === me?.id} onChange={(e) => {
                      const next = e.target.value as Role;
                      // a role change ends the account's sessions at once: ask first (the select stays as it was otherwise)
                      if (window.confirm(`Change ${u.username} from ${u.role} to ${next}? Their sessions end at once. ${next}s: ${ROLE_DESCRIPTIONS[next]}.`)) change.mutate({ id: u.id, role: next });
                    }}>
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="px-3 py-2 text-xs text-zinc-400">
                  {u.disabled ? "disabled" : u.mustChangePassword ? "one-time password pending" : "active"}
                  {/* an identity provider's account: no password here, its role is mapped again at each sign-in */}
                  {u.external ? " · signs in with the identity provider" : ""}
                </td>
                <td className="space-x-2 px-3 py-2 text-right">
                  {!u.external && (
                    <button className="text-xs text-sky-300 hover:underline" onClick={() => window.confirm(`Reset the password of ${u.username}?`) && change.mutate({ id: u.id, resetPassword: true })}>
                      Reset password
                    </button>
                  )}
                  {u.id !== me?.id && (
                    <button className="text-xs text-red-300 hover:underline" onClick={() => change.mutate({ id: u.id, disabled: !u.disabled })}>
                      {u.disabled ? "Enable" : "Disable"}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
    </div>
  );
}
