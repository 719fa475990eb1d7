import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type Checkpoint, type CheckpointStatus } from "../../api";
import { useStrings } from "../../i18n";
import { CheckpointEditor } from "./CheckpointEditor";

const OPEN: CheckpointStatus[] = ["in_progress", "paused", "resumed"];

/** Saved checkpoints, newest first, with their lifecycle actions and export. */
export function CheckpointList() {
  const t = useStrings();
  const [list, setList] = useState<Checkpoint[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [editing, setEditing] = useState<number | null>(null);

  const load = useCallback(() => {
    api.listCheckpoints().then(setList).catch((e) => setMessage(toCommandError(e).message));
  }, []);
  useEffect(load, [load]);

  const act = (work: Promise<unknown>, done?: (value: unknown) => string) =>
    work
      .then((value) => {
        if (done) setMessage(done(value));
        load();
      })
      .catch((e) => setMessage(toCommandError(e).message));

  return (
    <div data-testid="checkpoint-panel">
      {message && (
        <div className="info" role="status" data-testid="checkpoint-message">
          {message}
        </div>
      )}
      {list && list.length === 0 && <p className="empty-inline">{t.checkpointsEmpty}</p>}
      {list && list.length > 0 && (
        <div className="row">
          <button
            className="ghost small"
            onClick={() => act(api.exportCheckpoints(), (done) => t.checkpointsExported(...(done as [number, string])))}
            data-testid="checkpoints-export-all"
          >
            {t.checkpointExportAll}
          </button>
        </div>
      )}
      <ul className="checkpoints">
        {list?.map((c) => (
          <li key={c.id} className={`checkpoint ${c.status}`} data-testid="checkpoint">
            <div className="checkpoint-head">
              <strong>
                #{c.id} {c.body.title}
              </strong>
              <span className={`badge ${c.status}`} data-testid="checkpoint-status">
                {t.checkpointStatus(c.status)}
              </span>
              <span className="muted small">
                {c.trigger === "auto" ? t.checkpointAuto : c.trigger === "idle" ? t.checkpointIdle : t.checkpointManual} · {c.updated_at.slice(0, 16).replace("T", " ")}
              </span>
            </div>
            {editing === c.id ? (
              <CheckpointEditor
                checkpoint={c}
                onDone={(saved) => {
                  setEditing(null);
                  if (saved) {
                    // The saved checkpoint shows at once, never the old one until the list is read again.
                    setList((shown) => shown && shown.map((x) => (x.id === saved.id ? saved : x)));
                    setMessage(t.checkpointSaved(saved.id));
                    load();
                  }
                }}
              />
            ) : (
              <>
            {c.body.current_work && <p>{c.body.current_work}</p>}
            {c.body.pending.length > 0 && (
              <p className="small">
                <strong>{t.checkpointPending}:</strong> {c.body.pending.join(" · ")}
              </p>
            )}
            {c.body.completed.length > 0 && (
              <p className="small">
                <strong>{t.checkpointCompleted}:</strong> {c.body.completed.join(" · ")}
              </p>
            )}
            {c.body.decisions.length > 0 && (
              <div className="small" data-testid="checkpoint-decisions">
                <strong>{t.checkpointList("decisions")}:</strong>
                <ul>
                  {c.body.decisions.map((d) => (
                    <li key={d.what}>{t.checkpointDecision(d)}</li>
                  ))}
                </ul>
              </div>
            )}
            {c.body.critical_info.length > 0 && (
              <p className="small">
                <strong>{t.checkpointCritical}:</strong> {c.body.critical_info.join(" · ")}
              </p>
            )}
            {(["successful_approaches", "failed_approaches"] as const).map(
              (list) =>
                (c.body[list]?.length ?? 0) > 0 && (
                  <p className="small" key={list} data-testid={`checkpoint-${list}`}>
                    <strong>{t.checkpointList(list)}:</strong> {c.body[list]?.join(" · ")}
                  </p>
                ),
            )}
            {(c.body.blockers?.length ?? 0) > 0 && (
              <p className="small" data-testid="checkpoint-blockers">
                <strong>{t.checkpointBlockers}:</strong> {c.body.blockers?.join(" · ")}
              </p>
            )}
            {c.body.metadata && (c.body.metadata.model || c.body.metadata.touched.length > 0) && (
              <p className="muted small" data-testid="checkpoint-meta">
                {t.checkpointMeta(c.body.metadata)}
              </p>
            )}
              </>
            )}
            <div className="row">
              {OPEN.includes(c.status) && (
                <>
                  <button className="small" onClick={() => act(api.setCheckpointStatus(c.id, "completed"))} data-testid="checkpoint-done">
                    {t.checkpointDone}
                  </button>
                  <button className="ghost small" onClick={() => act(api.setCheckpointStatus(c.id, "abandoned"))}>
                    {t.checkpointAbandon}
                  </button>
                </>
              )}
              {editing !== c.id && (
                <button className="ghost small" onClick={() => setEditing(c.id)} data-testid="checkpoint-edit">
                  {t.checkpointEdit}
                </button>
              )}
              <button
                className="ghost small"
                onClick={() => act(api.exportCheckpoint(c.id), (path) => t.checkpointExported(String(path)))}
                data-testid="checkpoint-export"
              >
                {t.checkpointExport}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
