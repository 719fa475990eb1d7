import { useCallback, useEffect, useMemo, useState } from "react";
import { api, toCommandError, type CatchUp, type TasksPage, type TaskView } from "../../api";
import { useStrings } from "../../i18n";
import { ConfirmButton } from "../../components/ConfirmButton";
import { localTime, useReading } from "../reminders/RemindersView";
import { TimeField } from "../settings/TimeField";

type Missed = "run" | "ask" | "skip";

/** One task: its name, when, the next time or why it is paused, its tools, its last
 * runs with their tokens, and Run now / Pause or Resume / Delete. */
function TaskRow({
  task,
  zone,
  titles,
  onChanged,
}: {
  task: TaskView;
  zone: string;
  /** What a person calls each tool, by its name. */
  titles: Map<string, string>;
  onChanged: (note: { ok: boolean; text: string } | null) => void;
}) {
  const t = useStrings();
  const [running, setRunning] = useState(false);
  const act = (call: () => Promise<unknown>) =>
    call()
      .then(() => onChanged(null))
      .catch((e) => onChanged({ ok: false, text: toCommandError(e).message }));
  const run = () => {
    setRunning(true);
    act(() => api.runTaskNow(task.id)).finally(() => setRunning(false));
  };
  const status = task.paused ? t.taskPaused(task.paused) : task.next ? t.taskNext(localTime(task.next, zone, t.locale)) : t.taskDone;
  return (
    <li className="task-row" data-testid="task-row">
      <div className="task-head">
        <strong>{task.title}</strong>
        <span className="muted small"> · {task.when}</span>
      </div>
      <div className={task.paused ? "bad small" : "muted small"} data-testid="task-status">
        {status}
        {task.asked && ` · ${t.taskAsked}`}
      </div>
      {task.tools.length > 0 && (
        <div className="small muted" data-testid="task-tools">
          {task.tools.map((name) => titles.get(name) ?? name).join(", ")}
        </div>
      )}
      {task.runs.length > 0 && (
        <details className="small">
          <summary>{t.taskLastRuns}</summary>
          <ul className="task-runs" data-testid="task-runs">
            {task.runs.map((r) => (
              <li key={r.id} title={r.outcome ?? undefined}>
                {localTime(r.occurrence, zone, t.locale)} · {t.taskRunState(r.state)}
                {r.prompt_tokens != null && ` · ${t.taskTokens(r.prompt_tokens, r.completion_tokens ?? 0)}`}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="row-actions">
        <button type="button" className="ghost" data-testid="task-run" disabled={running} onClick={run}>
          {running ? t.taskRunning : t.taskRunNow}
        </button>
        {task.asked && (
          <button type="button" className="ghost" data-testid="task-decline" onClick={() => act(() => api.declineTask(task.id))}>
            {t.taskNotNow}
          </button>
        )}
        {/* The brief is turned on and off by its setting above: one way, not two. */}
        {task.kind === "brief" ? (
          <span className="muted small" data-testid="task-brief-note">
            {t.briefRowNote}
          </span>
        ) : (
          <>
            {task.paused ? (
              <button type="button" className="ghost" data-testid="task-resume" onClick={() => act(() => api.resumeTask(task.id))}>
                {t.taskResume}
              </button>
            ) : (
              <button type="button" className="ghost" data-testid="task-pause" onClick={() => act(() => api.pauseTask(task.id))}>
                {t.taskPause}
              </button>
            )}
            <ConfirmButton
              className="ghost danger"
              testId="task-remove"
              label={t.taskRemove}
              question={t.taskRemoveConfirm(task.title)}
              yes={t.taskRemove}
              onConfirm={() => act(() => api.removeTask(task.id))}
            />
          </>
        )}
      </div>
    </li>
  );
}

/** The form: what, when (read as it is typed), a name, the tools it may use, what a
 * missed time becomes, and whether quiet hours hold it back. */
function NewTask({ page, onAdded }: { page: TasksPage; onAdded: (title: string) => void }) {
  const t = useStrings();
  const [prompt, setPrompt] = useState("");
  const [when, setWhen] = useState("");
  const [title, setTitle] = useState("");
  const [tools, setTools] = useState<string[]>([]);
  const [missed, setMissed] = useState<Missed>("skip");
  const [always, setAlways] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const preview = useReading(when, api.previewWhen);
  const ready = prompt.trim() !== "" && preview?.status === "ok" && !busy;
  const catchUp: CatchUp = missed === "run" ? { kind: "run_now" } : missed === "ask" ? { kind: "ask" } : { kind: "skip_older_than", minutes: page.default_skip_minutes };
  const add = () => {
    if (!ready) return;
    setBusy(true);
    setError(null);
    api
      .addTask({ title: title.trim() || null, prompt, when, tools, catch_up: catchUp, always_deliver: always })
      .then(() => {
        onAdded(title.trim() || prompt.trim());
        setPrompt("");
        setWhen("");
        setTitle("");
        setTools([]);
      })
      .catch((e) => setError(toCommandError(e).message))
      .finally(() => setBusy(false));
  };
  return (
    <form
      className="task-form"
      data-testid="task-form"
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <h3>{t.taskNew}</h3>
      <label>
        {t.taskPrompt}
        <textarea rows={2} value={prompt} onChange={(e) => setPrompt(e.target.value)} placeholder={t.taskPromptPlaceholder} data-testid="task-prompt" />
      </label>
      <label>
        {t.taskWhen}
        <input value={when} onChange={(e) => setWhen(e.target.value)} placeholder={t.taskWhenPlaceholder} data-testid="task-when" />
      </label>
      <div className="when-preview small" data-testid="task-when-preview" aria-live="polite">
        {preview?.status === "ok" && (
          <span className="ok-text">
            {preview.local}
            {preview.rule_words && ` · ${preview.rule_words}`}
          </span>
        )}
        {preview?.status === "error" && (
          <span className="error-text">
            {preview.error} {preview.suggestion}
          </span>
        )}
      </div>
      <label>
        {t.taskTitleLabel}
        <input value={title} onChange={(e) => setTitle(e.target.value)} data-testid="task-title" />
      </label>
      <fieldset className="task-tools">
        <legend>{t.taskTools}</legend>
        <p className="muted small">{t.taskToolsNone}</p>
        {page.tools.map(([name, title]) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              checked={tools.includes(name)}
              data-testid={`task-tool-${name}`}
              onChange={(e) => setTools((chosen) => (e.target.checked ? [...chosen, name] : chosen.filter((n) => n !== name)))}
            />
            {title}
          </label>
        ))}
      </fieldset>
      <label>
        {t.taskIfMissed}
        <select value={missed} onChange={(e) => setMissed(e.target.value as Missed)} data-testid="task-missed">
          <option value="skip">{t.taskMissedSkip(page.default_skip_minutes)}</option>
          <option value="run">{t.taskMissedRun}</option>
          <option value="ask">{t.taskMissedAsk}</option>
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={always} onChange={(e) => setAlways(e.target.checked)} data-testid="task-always" />
        {t.taskAlways}
      </label>
      <button type="submit" disabled={!ready} data-testid="task-add">
        {busy ? t.taskAdding : t.taskAdd}
      </button>
      {error && (
        <p className="error-text small" role="alert" data-testid="task-error">
          {error}
        </p>
      )}
    </form>
  );
}

/** The morning brief: on at a time, or off. */
function BriefSetting({ page, onChanged }: { page: TasksPage; onChanged: (note: { ok: boolean; text: string } | null) => void }) {
  const t = useStrings();
  const [time, setTime] = useState(page.brief_at ?? page.brief_default);
  const save = (at: string | null) =>
    api
      .setBrief(at)
      .then(() => onChanged({ ok: true, text: t.briefSaved(at) }))
      .catch((e) => onChanged({ ok: false, text: toCommandError(e).message }));
  return (
    <div className="brief-setting" data-testid="brief-setting">
      <h3>{t.briefTitle}</h3>
      <p className="muted small">{t.briefIntro}</p>
      <label className="check">
        <input type="checkbox" checked={page.brief_at != null} data-testid="brief-on" onChange={(e) => save(e.target.checked ? time : null)} />
        {t.briefOn}
        <TimeField
          label={t.briefTime}
          value={time}
          testid="brief-time"
          onChange={setTime}
          onBlur={() => page.brief_at != null && time !== page.brief_at && save(time)}
        />
      </label>
      {page.brief_at != null && <BriefPlace page={page} onChanged={onChanged} />}
    </div>
  );
}

/** Where the brief's weather is for: the core keeps it, and leaves the weather out
 * without one (the first hour's m8: the brief used the weather with no place). */
function BriefPlace({ page, onChanged }: { page: TasksPage; onChanged: (note: { ok: boolean; text: string } | null) => void }) {
  const t = useStrings();
  const saved = page.brief_place ?? "";
  const [place, setPlace] = useState(saved);
  const save = () => {
    if (place.trim() === saved) return;
    api
      .setBriefPlace(place)
      .then(() => onChanged({ ok: true, text: t.briefPlaceSaved(place.trim()) }))
      .catch((e) => onChanged({ ok: false, text: toCommandError(e).message }));
  };
  if (!page.brief_weather) return <p className="muted small" data-testid="brief-no-weather">{t.briefNoWeather}</p>;
  return (
    <div className="setting-row brief-place">
      <label htmlFor="brief-place">{t.briefPlace}</label>
      <input
        id="brief-place"
        value={place}
        placeholder={t.briefPlaceHint}
        data-testid="brief-place"
        onChange={(e) => setPlace(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => e.key === "Enter" && save()}
      />
      {!saved && <span className="muted small" data-testid="brief-no-place">{t.briefNoPlace}</span>}
    </div>
  );
}

/** Settings → Tasks: the tasks, and a form to make one. Follows the core's events. */
export function TasksSettings() {
  const t = useStrings();
  const [page, setPage] = useState<TasksPage | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const load = useCallback(() => {
    api
      .tasksPage()
      .then(setPage)
      .catch((e) => setNote({ ok: false, text: toCommandError(e).message }));
  }, []);
  useEffect(() => {
    load();
    const off = api.onCoreEvent((event) => {
      if (event.type === "tasks_changed" || event.type === "task_run_finished" || event.type === "task_asks") load();
    });
    return () => {
      off.then((stop) => stop());
    };
  }, [load]);
  const changed = (next: { ok: boolean; text: string } | null) => {
    setNote(next);
    load();
  };
  // What a person calls each tool, by its name: one map for every row.
  const titles = useMemo(() => new Map(page?.tools ?? []), [page]);
  return (
    <section data-testid="tasks-settings">
      <h2>{t.tasksTitle}</h2>
      <p className="muted">{t.tasksIntro}</p>
      {page?.demo_only && (
        <p className="info" role="note" data-testid="tasks-demo">
          {t.tasksDemoOnly}
        </p>
      )}
      {page?.waiting_for_power && (
        <p className="info" role="note" data-testid="tasks-power">
          {page.waiting_for_power}
        </p>
      )}
      {page && (
        <p className="small muted" data-testid="tasks-today">
          {t.tasksToday(...page.tokens_today)} {t.tasksNotified(...page.notified_today)}
        </p>
      )}
      {page && <BriefSetting key={page.brief_at ?? "off"} page={page} onChanged={changed} />}
      {page && page.tasks.length === 0 && (
        <p className="empty-state" data-testid="tasks-empty">
          {t.tasksEmpty}
        </p>
      )}
      {page && page.tasks.length > 0 && (
        <ul className="task-list" data-testid="task-list">
          {page.tasks.map((task) => (
            <TaskRow key={task.id} task={task} zone={page.zone} titles={titles} onChanged={changed} />
          ))}
        </ul>
      )}
      {note && (
        <p className={note.ok ? "muted small" : "bad small"} role={note.ok ? "status" : "alert"} data-testid="tasks-note">
          {note.text}
        </p>
      )}
      {page && <NewTask page={page} onAdded={(title) => changed({ ok: true, text: t.taskAdded(title) })} />}
    </section>
  );
}
