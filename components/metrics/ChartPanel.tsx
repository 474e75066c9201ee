import type { ReactNode } from "react";
import Panel from "@/components/ui/Panel";

export interface DataTable {
  columns: string[];
  rows: Array<Array<string | number>>;
}

/**
 * One chart with what makes it usable without seeing it: a title, a one-line summary (also the chart's accessible
 * description), the figures as a table under a disclosure, and the series as CSV.
 */
export default function ChartPanel({ id, title, summary, csvHref, table, height = 224, footer, children }: { id: string; title: string; summary: string; csvHref: string; table: DataTable; height?: number; footer?: ReactNode; children: ReactNode }) {
  return (
    <Panel
      title={<span id={`${id}-title`}>{title}</span>}
      actions={
        <a href={csvHref} download data-testid={`csv-${id}`} className="rounded border border-surface-line px-2 py-0.5 text-xs text-sky-300 hover:bg-surface-sunken" aria-label={`Download ${title} as CSV`}>
          CSV
        </a>
      }
      className="min-w-0"
    >
      <div className="space-y-2 p-3">
        <p id={`${id}-desc`} className="text-xs text-zinc-400">
          {summary}
        </p>
        <figure role="figure" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} data-testid={`chart-${id}`} className="w-full min-w-0" style={{ height }}>
          {children}
        </figure>
        {footer}
        <details className="text-xs text-zinc-300">
          <summary className="cursor-pointer select-none text-zinc-400 hover:text-zinc-200">Show as a table</summary>
          <div className="mt-2 max-h-72 overflow-auto">
            <table className="w-full border-collapse text-left tabular-nums" data-testid={`table-${id}`}>
              <caption className="sr-only">{title}</caption>
              <thead>
                <tr>
                  {table.columns.map((c) => (
                    <th key={c} scope="col" className="sticky top-0 border-b border-surface-line bg-surface-raised px-2 py-1 font-semibold text-zinc-400">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((r, i) => (
                  <tr key={i} className="border-b border-surface-line/50">
                    {r.map((v, j) => (j === 0 ? <th key={j} scope="row" className="px-2 py-1 font-normal">{v}</th> : <td key={j} className="px-2 py-1">{v}</td>))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </div>
    </Panel>
  );
}
