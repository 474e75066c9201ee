"use client";

import { useFilesQuery } from "@/components/hooks/queries/useFilesQuery";
import ErrorNote from "@/components/ui/ErrorNote";
import FileRow from "./FileRow";
import { useFilesLive } from "./useFilesLive";

export default function FileList() {
  const files = useFilesQuery();
  useFilesLive();

  if (files.isPending) return <p data-testid="file-list" data-state="loading" className="px-3 py-6 text-center text-xs text-zinc-500">Loading files…</p>;
  if (files.isError) return <div data-testid="file-list" data-state="error" className="p-3"><ErrorNote prefix="Could not load files:" error={files.error} /></div>;
  const rows = [...files.data.files].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  if (rows.length === 0) return <p data-testid="file-list" data-state="ready" className="px-3 py-6 text-center text-xs text-zinc-500">No files submitted yet.</p>;

  return (
    <div data-testid="file-list" data-state="ready" className="overflow-x-auto">
      <table className="w-full table-fixed text-left text-sm" data-testid="file-table">
        <colgroup>
          <col />
          <col className="w-48" />
          <col className="w-24" />
          <col className="w-48" />
          <col className="w-36" />
          <col className="w-24" />
        </colgroup>
        <thead className="text-[11px] uppercase tracking-wider text-zinc-500">
          <tr>
            <th className="py-1.5 pl-3 pr-2 font-medium">Title / URL</th>
            <th className="px-2 py-1.5 font-medium">btId</th>
            <th className="px-2 py-1.5 font-medium">Status</th>
            <th className="px-2 py-1.5 font-medium">Progress / risk</th>
            <th className="px-2 py-1.5 font-medium">Created</th>
            <th className="px-3 py-1.5" />
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => <FileRow key={f.requestId} file={f} />)}
        </tbody>
      </table>
    </div>
  );
}
