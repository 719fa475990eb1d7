import { forwardRef, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { api, toCommandError, type Attachment, type CommandHelp } from "../../api";
import { useStrings } from "../../i18n";
import { AttachmentChip } from "./AttachmentChip";
import { VoiceButton } from "../voice/VoiceButton";

interface Props {
  busy: boolean;
  onSend: (text: string, files: Attachment[]) => void;
  onStop: () => void;
}

/** The commands a "/…" being typed could be: while the first word is still being typed. */
function matching(text: string, table: CommandHelp[]): CommandHelp[] {
  if (!text.startsWith("/") || /\s/.test(text)) return [];
  const typed = text.toLowerCase();
  return table.filter((c) => c.command.startsWith(typed));
}

/**
 * Enter sends, Shift+Enter starts a new line, Escape stops a reply being written.
 * Typing "/" opens the palette of commands (the core's table): arrows move, Enter or
 * Tab picks, Escape closes.
 */
/** How often typing is told to the core (the character listens for a few seconds). */
const TYPING_EVERY_MS = 1500;

export const Composer = forwardRef<HTMLTextAreaElement, Props>(function Composer(
  { busy, onSend, onStop },
  ref,
) {
  const t = useStrings();
  const [text, setText] = useState("");
  // The character on the desktop listens while the user types: said at most every
  // TYPING_EVERY_MS.
  const typingSaid = useRef(0);
  const sayTyping = () => {
    const now = Date.now();
    if (now - typingSaid.current < TYPING_EVERY_MS) return;
    typingSaid.current = now;
    api.userTyping().catch(() => undefined);
  };
  const [table, setTable] = useState<CommandHelp[]>([]);
  const [chosen, setChosen] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    api.commandTable().then((commands) => setTable(commands ?? [])).catch(() => setTable([]));
  }, []);
  const palette = dismissed ? [] : matching(text, table);
  const [files, setFiles] = useState<Attachment[]>([]);
  const [reading, setReading] = useState(0);
  const [refused, setRefused] = useState<string[]>([]);
  // Each file is read by the core (text, PDF, DOCX), one after another; a refusal says why.
  const attach = async (paths: string[]) => {
    setRefused([]);
    for (const path of paths) {
      setReading((n) => n + 1);
      try {
        const file = await api.attachFile(path);
        setFiles((now) => [...now.filter((f) => f.name !== file.name), file]);
      } catch (e) {
        const why = toCommandError(e).message;
        setRefused((now) => [...now, why]);
      } finally {
        setReading((n) => n - 1);
      }
    }
  };
  useEffect(() => {
    const off = api.onFilesDropped((paths) => void attach(paths));
    return () => {
      off.then((f) => f()).catch(() => undefined);
    };
  }, []);
  const pick = (command: CommandHelp) => {
    setText(command.arguments ? `${command.command} ` : command.command);
    setChosen(0);
  };

  // While a reply is being written a message still goes: the core queues it.
  const empty = text.trim() === "" && files.length === 0;
  const submit = () => {
    if (empty || reading > 0) return;
    onSend(text, files);
    setText("");
    setFiles([]);
    setRefused([]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (palette.length > 0) {
      const at = Math.min(chosen, palette.length - 1);
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setChosen((at + (e.key === "ArrowDown" ? 1 : palette.length - 1)) % palette.length);
        return;
      }
      // Enter on a command typed in full sends it (each works without arguments);
      // on a part of one it picks. Tab always picks.
      if (e.key === "Tab" || (e.key === "Enter" && !palette.some((c) => c.command === text))) {
        e.preventDefault();
        pick(palette[at]);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setDismissed(true);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === "Escape" && busy) {
      e.preventDefault();
      onStop();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {palette.length > 0 && (
        <ul className="palette" role="listbox" aria-label={t.paletteLabel} data-testid="palette">
          {palette.map((c, i) => (
            <li
              key={c.command}
              role="option"
              aria-selected={i === Math.min(chosen, palette.length - 1)}
              className={i === Math.min(chosen, palette.length - 1) ? "chosen" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
              data-testid="palette-item"
            >
              <code>
                {c.command}
                {c.arguments && <span className="muted"> {c.arguments}</span>}
              </code>
              <span className="muted small">{c.description}</span>
            </li>
          ))}
        </ul>
      )}
      {(files.length > 0 || reading > 0 || refused.length > 0) && (
        <div className="composer-files" data-testid="composer-files">
          {files.map((f) => (
            <AttachmentChip key={f.name} file={f} onRemove={() => setFiles((now) => now.filter((x) => x.name !== f.name))} />
          ))}
          {reading > 0 && (
            <span className="muted small" role="status">
              {t.attachReading}
            </span>
          )}
          {refused.map((why) => (
            <span key={why} className="bad small" role="alert" data-testid="attach-refused">
              {why}
            </span>
          ))}
        </div>
      )}
      <button
        type="button"
        className="ghost attach"
        data-testid="attach"
        aria-label={t.attachFiles}
        title={t.attachFiles}
        onClick={() => api.chooseAttachments().then(attach, (e) => setRefused([toCommandError(e).message]))}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
        </svg>
      </button>
      <VoiceButton
        onHeard={({ text: words, review }) => {
          // Words said into an empty composer go as they are, unless the user reads them
          // over first (Settings → Voice); with something already typed or attached they
          // join it, to be read over before sending.
          if (!review && text.trim() === "" && files.length === 0) onSend(words, []);
          else setText((now) => (now.trim() === "" ? words : `${now.trimEnd()} ${words}`));
        }}
        onProblem={(why) => setRefused([why])}
      />
      <textarea
        ref={ref}
        id="composer"
        data-testid="composer"
        value={text}
        placeholder={t.placeholder}
        aria-label={t.placeholder}
        rows={Math.min(8, Math.max(1, text.split("\n").length))}
        onChange={(e) => {
          setText(e.target.value);
          setChosen(0);
          setDismissed(false);
          sayTyping();
        }}
        onKeyDown={onKeyDown}
        autoFocus
      />
      {busy && (
        <button type="button" className="stop" data-testid="stop" onClick={onStop}>
          {t.stop}
        </button>
      )}
      {(!busy || !empty) && (
        <button type="submit" className={busy ? "send ghost" : "send"} data-testid="send" disabled={empty || reading > 0} title={busy ? t.queueHint : undefined}>
          {busy ? t.queue : t.send}
        </button>
      )}
    </form>
  );
});
