import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type ProfileFile } from "../../api";
import { useStrings } from "../../i18n";
import { ProfileForm } from "./ProfileForm";

/**
 * Edits not saved yet, by file, with the version they were made on: they outlive the
 * editor, so switching tabs never loses them.
 */
const drafts = new Map<ProfileFile, { text: string; version: string }>();

/** One knowledge file in a text area; saving is refused if it changed on disk. */
function ProfileEditor({ file, label }: { file: ProfileFile; label: string }) {
  const t = useStrings();
  const [text, setText] = useState("");
  const [version, setVersion] = useState<string | null>(null);
  const [saved, setSaved] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [confirmDiscard, setConfirmDiscard] = useState(false);

  const load = useCallback(
    (keepDraft: boolean) => {
      api
        .readProfile(file)
        .then((p) => {
          const draft = keepDraft ? drafts.get(file) : undefined;
          if (!keepDraft) drafts.delete(file);
          setText(draft ? draft.text : p.text);
          setSaved(p.text);
          // A draft is saved against the version it was made on, so a change on disk
          // meanwhile is still caught.
          setVersion(draft ? draft.version : p.version);
          setMessage(null);
          setConfirmDiscard(false);
        })
        .catch((e) => setMessage(toCommandError(e).message));
    },
    [file],
  );
  useEffect(() => load(true), [load]);
  const unsaved = version !== null && text !== saved;
  useEffect(() => {
    if (version === null) return;
    if (unsaved) drafts.set(file, { text, version });
    else drafts.delete(file);
  }, [file, text, version, unsaved]);

  const save = () => {
    if (version === null) return;
    api
      .saveProfile(file, text, version)
      .then((next) => {
        setVersion(next);
        setSaved(text);
        drafts.delete(file);
        setMessage(t.profileSaved);
      })
      .catch((e) => setMessage(toCommandError(e).message));
  };

  return (
    <form
      className="profile-editor"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label htmlFor={`profile-${file}`}>
        <strong>{label}</strong>
      </label>
      <textarea
        id={`profile-${file}`}
        value={text}
        rows={8}
        spellCheck
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key === "s") {
            e.preventDefault();
            save();
          }
        }}
        data-testid={`profile-${file}`}
      />
      <div className="row">
        <button type="submit" disabled={text === saved || version === null} data-testid={`profile-${file}-save`}>
          {t.save}
        </button>
        <button type="button" className="ghost" onClick={() => (unsaved ? setConfirmDiscard(true) : load(false))} data-testid={`profile-${file}-reload`}>
          {t.reload}
        </button>
        {unsaved && !confirmDiscard && (
          <span className="warn-text small" data-testid={`profile-${file}-unsaved`}>
            {t.unsavedChanges}
          </span>
        )}
        {confirmDiscard && (
          <span className="row" role="alert" data-testid={`profile-${file}-discard`}>
            <span className="small">{t.discardQuestion}</span>
            <button type="button" className="ghost small danger" onClick={() => load(false)}>
              {t.discard}
            </button>
            <button type="button" className="ghost small" onClick={() => setConfirmDiscard(false)}>
              {t.keepEditing}
            </button>
          </span>
        )}
        {message && (
          <span className="muted small" role="status" data-testid={`profile-${file}-message`}>
            {message}
          </span>
        )}
      </div>
    </form>
  );
}

/** Which view of the profile was last open: it outlives the panel, like the drafts. */
let lastView: "form" | "files" = "form";

/** The profile as a form, with the two files it lives in one click away. */
export function ProfileEditors() {
  const t = useStrings();
  const [view, setView] = useState(lastView);
  const show = (next: "form" | "files") => {
    lastView = next;
    setView(next);
  };
  return (
    <div data-testid="profile-panel">
      <div className="subtabs" role="tablist">
        {(["form", "files"] as const).map((v) => (
          <button key={v} role="tab" aria-selected={view === v} className={`tab${view === v ? " active" : ""}`} onClick={() => show(v)} data-testid={`profile-view-${v}`}>
            {v === "form" ? t.profileFormTab : t.profileFilesTab}
          </button>
        ))}
      </div>
      {view === "form" ? (
        <ProfileForm />
      ) : (
        <>
          <ProfileEditor file="user" label={t.profileUser} />
          <ProfileEditor file="soul" label={t.profileSoul} />
        </>
      )}
    </div>
  );
}
