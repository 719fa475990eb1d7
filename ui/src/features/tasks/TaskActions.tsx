import { useState } from "react";
import { api, toCommandError } from "../../api";
import { useStrings } from "../../i18n";
import { ThumbDown, ThumbUp } from "../../components/Icons";

/** Thumbs under a morning brief: the next briefs are told what the user thought. */
export function BriefFeedback({ messageId }: { messageId: number }) {
  const t = useStrings();
  const [said, setSaid] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (said) return <div className="muted small" data-testid="brief-rated">{said}</div>;
  const rate = (liked: boolean) =>
    api
      .rateBrief(messageId, liked)
      .then(() => setSaid(liked ? t.briefLiked : t.briefDisliked))
      .catch((e) => setFailed(toCommandError(e).message));
  return (
    <div className="reminder-message-actions" data-testid="brief-feedback">
      <button type="button" className="ghost small" data-testid="brief-good" title={t.briefGood} aria-label={t.briefGood} onClick={() => rate(true)}>
        <ThumbUp />
      </button>
      <button type="button" className="ghost small" data-testid="brief-bad" title={t.briefBad} aria-label={t.briefBad} onClick={() => rate(false)}>
        <ThumbDown />
      </button>
      {failed && <span className="error-text small">{failed}</span>}
    </div>
  );
}

/** Under a late time a task asked about (in the Tasks conversation): Run now, or Not
 * this time; a line then says what was done. */
export function TaskActions({ taskId }: { taskId: number }) {
  const t = useStrings();
  const [state, setState] = useState<"waiting" | "running" | "declined" | "ran">("waiting");
  const [failed, setFailed] = useState<string | null>(null);
  if (state === "declined") return <div className="muted small" data-testid="task-answered">{t.taskDeclined}</div>;
  if (state === "ran") return null;
  const run = () => {
    setState("running");
    api
      .runTaskNow(taskId)
      .then(() => setState("ran"))
      .catch((e) => {
        setState("waiting");
        setFailed(toCommandError(e).message);
      });
  };
  const decline = () =>
    api
      .declineTask(taskId)
      .then(() => setState("declined"))
      .catch((e) => setFailed(toCommandError(e).message));
  return (
    <div className="reminder-message-actions" data-testid="task-actions">
      <button type="button" className="ghost small" data-testid="chat-task-run" disabled={state === "running"} onClick={run}>
        {state === "running" ? t.taskRunning : t.taskRunNow}
      </button>
      <button type="button" className="ghost small" data-testid="chat-task-decline" disabled={state === "running"} onClick={decline}>
        {t.taskNotNow}
      </button>
      {failed && <span className="error-text small">{failed}</span>}
    </div>
  );
}
