// "Forget everything about Ana": a name, the list of what names them (facts, messages,
// summaries and checkpoints) with every item ticked, then Forget for good. The core
// finds and forgets; this lists and lets the user untick.
import { useState } from "react";
import { api, toCommandError, type AboutSomeone, type ForgottenAbout } from "../../api";
import { shortDay } from "../../format";
import { useStrings } from "../../i18n";
import { Snippet } from "../chat/Snippet";

/** Item keys ticked: `f<line>`, `m<id>`, `summary<id>`, `checkpoint<id>`. */
function everything(about: AboutSomeone): Set<string> {
  return new Set([...about.facts.map((f) => `f${f.line}`), ...about.messages.map((m) => `m${m.message_id}`), ...about.notes.map((n) => `${n.kind}${n.id}`)]);
}

export function ForgetAbout({ onForgotten, onClose }: { onForgotten: () => void; onClose: () => void }) {
  const t = useStrings();
  const [name, setName] = useState("");
  const [about, setAbout] = useState<AboutSomeone | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);

  const find = async () => {
    if (!name.trim()) return;
    setBusy(true);
    setSaid(null);
    try {
      const found = await api.aboutSomeone(name);
      setAbout(found);
      setTicked(everything(found));
    } catch (e) {
      setSaid(toCommandError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const forget = async () => {
    if (!about) return;
    setBusy(true);
    try {
      const gone: ForgottenAbout = await api.forgetAbout({
        facts: about.facts.filter((f) => ticked.has(`f${f.line}`)).map((f) => ({ line: f.line, text: f.text })),
        messages: about.messages.filter((m) => ticked.has(`m${m.message_id}`)).map((m) => m.message_id),
        notes: about.notes.filter((n) => ticked.has(`${n.kind}${n.id}`)),
      });
      setSaid(t.forgetAboutDone(about.name, gone.facts, gone.messages, gone.notes) + (gone.changed ? ` ${t.forgetAboutChanged(gone.changed)}` : ""));
      setAbout(null);
      onForgotten();
    } catch (e) {
      setSaid(toCommandError(e).message);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (key: string) =>
    setTicked((now) => {
      const next = new Set(now);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const item = (key: string, body: React.ReactNode) => (
    <li key={key}>
      <label className="check">
        <input type="checkbox" checked={ticked.has(key)} onChange={() => toggle(key)} data-testid="forget-about-item" />
        <span>{body}</span>
      </label>
    </li>
  );
  const found = about ? about.facts.length + about.messages.length + about.notes.length : 0;

  return (
    <section className="panel forget-about" aria-label={t.forgetAboutTitle} data-testid="forget-about" onKeyDown={(e) => e.key === "Escape" && onClose()}>
      <h3>{t.forgetAboutTitle}</h3>
      <p className="muted small">{t.forgetAboutIntro}</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          find();
        }}
      >
        <input value={name} aria-label={t.forgetAboutName} placeholder={t.forgetAboutPlaceholder} onChange={(e) => setName(e.target.value)} autoFocus data-testid="forget-about-name" />
        <button type="submit" disabled={busy || !name.trim()} data-testid="forget-about-find">
          {busy && !about ? t.forgetAboutFinding : t.forgetAboutFind}
        </button>
        <button type="button" className="ghost" onClick={onClose}>
          {t.cancel}
        </button>
      </form>
      {said && (
        <p className="info" role="status" data-testid="forget-about-said">
          {said}
        </p>
      )}
      {about && found === 0 && <p className="empty-inline">{t.forgetAboutNothing(about.name)}</p>}
      {about && found > 0 && (
        <div data-testid="forget-about-list">
          <p>{t.forgetAboutFound(about.name)}</p>
          {about.facts.length > 0 && (
            <>
              <h4>{t.forgetAboutFacts}</h4>
              <ul className="forget-list">{about.facts.map((f) => item(`f${f.line}`, f.text))}</ul>
            </>
          )}
          {about.messages.length > 0 && (
            <>
              <h4>{t.forgetAboutMessages}</h4>
              <ul className="forget-list">
                {about.messages.map((m) =>
                  item(
                    `m${m.message_id}`,
                    <>
                      <span className="muted small">
                        {m.role === "user" ? t.you : t.sidecar} · {shortDay(m.at, t.locale)}
                      </span>{" "}
                      <Snippet text={m.excerpt} />
                    </>,
                  ),
                )}
              </ul>
            </>
          )}
          {about.notes.length > 0 && (
            <>
              <h4>{t.forgetAboutNotes}</h4>
              <ul className="forget-list">
                {about.notes.map((n) =>
                  item(
                    `${n.kind}${n.id}`,
                    <>
                      <span className="muted small">{n.kind === "checkpoint" ? t.forgetAboutCheckpoint : t.forgetAboutSummary}</span> <Snippet text={n.excerpt} />
                    </>,
                  ),
                )}
              </ul>
            </>
          )}
          {about.more && <p className="muted small">{t.forgetAboutMore}</p>}
          <p className="muted small">{t.forgetAboutExchanges}</p>
          <button type="button" className="destroy" disabled={busy || ticked.size === 0} onClick={forget} data-testid="forget-about-confirm">
            {busy ? t.forgetAboutForgetting : t.forgetAboutConfirm(ticked.size)}
          </button>
        </div>
      )}
    </section>
  );
}
