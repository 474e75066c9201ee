import { ApiRequestError } from "@/components/api/http";

/** Inline error text for a failed query or mutation. */
export default function ErrorNote({ error, prefix, testId }: { error: unknown; prefix?: string; testId?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiRequestError && error.code !== undefined ? ` (code ${error.code})` : "";
  return (
    <p role="alert" data-testid={testId} className="rounded border border-risk-reject/40 bg-risk-reject/10 px-3 py-2 text-xs text-red-200">
      {prefix ? <span className="font-semibold">{prefix} </span> : null}
      {message}
      {code}
    </p>
  );
}
