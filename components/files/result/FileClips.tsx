"use client";

import ClipList from "@/components/preview/ClipList";
import { usePreviewQuery } from "@/components/preview/usePreviewQuery";
import Panel from "@/components/ui/Panel";

/** A file's evidence clips (cut from the downloaded file around each REJECT frame), with signed play/download links. */
export default function FileClips({ requestId }: { requestId: string }) {
  const info = usePreviewQuery(requestId, false);
  if (!info.data || info.data.clips.length === 0) return null;
  return (
    <Panel title="Evidence clips">
      <div className="p-3">
        <ClipList requestId={requestId} clips={info.data.clips} beforeSec={info.data.clipBeforeSec} afterSec={info.data.clipAfterSec} />
      </div>
    </Panel>
  );
}
