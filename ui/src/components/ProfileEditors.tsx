import { useCallback, useEffect, useState } from "react";
import { api, toCommandError, type ProfileFile } from "../api";
import { useStrings } from "../i18n";

/** One knowledge file in a text area; saving is refused if it changed on disk. */
function ProfileEditor({ file, label }: { file: ProfileFile; label: string }) {
  const t = useStrings();
  const [text, setText] = useState("");
  const [version, setVersion] = useState<string | null>(null);
  const [saved, setSaved] = useState("");
  const [message, setMessage] = useState<string | null>(null);

  const load = useCallback(() => {
    api
      .readProfile(file)
      .then((p) => {
        setText(p.text);
        setSaved(p.text);
        setVersion(p.version);
        setMessage(null);
      })
      .catch((e) => setMessage(toCommandError(e).message));
  }, [file]);
  useEffect(load, [load]);

  const save = () => {
    if (version === null) return;
    api
      .saveProfile(file, text, version)
      .then((next) => {
        setVersion(next);
        setSaved(text);
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
        <button type="button" className="ghost" onClick={load}>
          {t.reload}
        </button>
        {message && (
          <span className="muted small" role="status" data-testid={`profile-${file}-message`}>
            {message}
          </span>
        )}
      </div>
    </form>
  );
}

export function ProfileEditors() {
  const t = useStrings();
  return (
    <div data-testid="profile-panel">
      <ProfileEditor file="user" label={t.profileUser} />
      <ProfileEditor file="soul" label={t.profileSoul} />
    </div>
  );
}
