import { useEffect, useState } from "react";
import { api, toCommandError, type IcsImport } from "../../api";
import { readText } from "../chat/files";
import { useStrings } from "../../i18n";

/** How many skipped events are named before "…and N more". */
const SKIPPED_SHOWN = 5;

/** An import under way, as the core reports it (`total` is 0 while reading). */
type Progress = { saved: number; total: number };

/** Export to a calendar file, or import one: progress and Stop while it runs, then
 * what was imported and what was not, and why. */
export function CalendarFiles({ onDone }: { onDone: (message: string, failed?: boolean) => void }) {
  const t = useStrings();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [report, setReport] = useState<IcsImport | null>(null);
  const fail = (e: unknown) => onDone(toCommandError(e).message, true);
  const details = report && !report.stopped && (report.unreadable.length > 0 || (report.shortened ?? 0) > 0) ? report : null;
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "calendar_import" && !event.done) setProgress({ saved: event.saved, total: event.total });
    });
    return () => {
      off.then((f) => f());
    };
  }, []);
  const importFile = (file: File) => {
    setReport(null);
    setProgress({ saved: 0, total: 0 });
    readText(file)
      .then((text) => api.importRemindersIcs(text))
      .then((r) => {
        setReport(r);
        onDone(r.stopped ? t.calendarStopped : t.imported(r.added, r.past, r.unreadable.length));
      }, fail)
      .finally(() => setProgress(null));
  };
  return (
    // With a report, the files' row takes the page's width: the buttons stay right, the list below them.
    <div className={`calendar-files${details ? " with-details" : ""}`}>
      <button type="button" className="ghost small" data-testid="export-ics" onClick={() => api.exportRemindersIcs().then((path) => onDone(t.exported(path)), fail)}>
        {t.exportIcs}
      </button>
      {progress ? (
        <span className="calendar-progress" role="status" data-testid="import-progress">
          {progress.total > 0 ? <progress max={progress.total} value={progress.saved} /> : <progress />}
          <span className="muted small">{progress.total > 0 ? t.calendarSaving(progress.saved, progress.total) : t.calendarReading}</span>
          <button type="button" className="ghost small danger" data-testid="stop-import" onClick={() => api.stopRemindersImport()}>
            {t.calendarStop}
          </button>
        </span>
      ) : (
        <label className="ghost small file-button">
          {t.importIcs}
          <input
            type="file"
            accept=".ics,text/calendar"
            data-testid="import-ics"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) importFile(file);
            }}
          />
        </label>
      )}
      {details && <ImportDetails report={details} />}
    </div>
  );
}

/** What an import cut or left out, each with why. */
function ImportDetails({ report }: { report: IcsImport }) {
  const t = useStrings();
  const shown = report.unreadable.slice(0, SKIPPED_SHOWN);
  const more = report.unreadable.length - shown.length;
  return (
    <div className="import-details small" data-testid="import-details">
      {(report.shortened ?? 0) > 0 && <p>{t.calendarShortened(report.shortened ?? 0)}</p>}
      {shown.length > 0 && (
        <>
          <p>{t.calendarSkippedHeading}</p>
          <ul>
            {shown.map((why) => (
              <li key={why}>{why}</li>
            ))}
          </ul>
          {more > 0 && <p className="muted">{t.calendarSkippedMore(more)}</p>}
        </>
      )}
    </div>
  );
}
