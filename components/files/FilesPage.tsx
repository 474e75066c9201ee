"use client";

import Panel from "@/components/ui/Panel";
import FileList from "./FileList";
import FileSubmitForm from "./FileSubmitForm";
import { useCan } from "@/components/auth/UserContext";

export default function FilesPage() {
  const canSubmit = useCan("file:submit");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-zinc-100">Video files</h1>
        <p className="text-xs text-zinc-500">Submit a file URL for frame and audio moderation; progress updates live.</p>
      </div>
      {canSubmit && (
        <Panel title="Submit a video file">
          <FileSubmitForm />
        </Panel>
      )}
      <Panel title="Submitted files">
        <FileList />
      </Panel>
    </div>
  );
}
