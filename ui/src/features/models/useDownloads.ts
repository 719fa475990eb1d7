// Model downloads as the core reports them (`model_download` events), by file.
import { useEffect, useState } from "react";
import { api, type DownloadState } from "../../api";

export function useDownloads(onFinished?: (state: DownloadState) => void): Record<string, DownloadState> {
  const [downloads, setDownloads] = useState<Record<string, DownloadState>>({});
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type !== "model_download") return;
      const { type: _type, ...state } = event;
      setDownloads((all) => ({ ...all, [state.file]: state }));
      if (state.phase !== "running") onFinished?.(state);
    });
    return () => {
      off.then((f) => f());
    };
  }, [onFinished]);
  return downloads;
}
