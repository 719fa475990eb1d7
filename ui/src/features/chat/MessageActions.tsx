import { useState, type KeyboardEvent } from "react";
import type { ReplyVersions } from "../../api";
import type { ShownMessage } from "./chatState";
import { useStrings } from "../../i18n";
import { CopyButton } from "./CopyButton";

/** What the chat lets a user do with its messages; absent where the chat is read-only. */
export interface ChatActions {
  /** A reply is being written: nothing can be regenerated or edited meanwhile. */
  busy: boolean;
  /** The last reply's versions; null when it cannot be written again. */
  versions: ReplyVersions | null;
  onRegenerate: () => void;
  onShowVersion: (number: number) => void;
  onEdit: (id: number, text: string) => void;
  /** Forgets the message's exchange for good (asked first). */
  onForget: (id: number) => void;
}

/** The stored id of a shown message, once known. */
export function storedId(message: ShownMessage): number | null {
  const id = /^m(\d+)$/.exec(message.key)?.[1];
  return id ? Number(id) : null;
}

/** The row under a message: Copy; Edit on the user's own; Regenerate and the versions on
 * the last reply; Delete, which asks first. */
export function MessageActions({
  message,
  actions,
  lastReply,
  onStartEdit,
}: {
  message: ShownMessage;
  actions?: ChatActions;
  lastReply: boolean;
  onStartEdit: () => void;
}) {
  const t = useStrings();
  const [asking, setAsking] = useState(false);
  const id = storedId(message);
  const editable = actions && !actions.busy && message.role === "user" && id !== null;
  const forgettable = actions && !actions.busy && id !== null;
  const versions = lastReply && actions && !actions.busy ? actions.versions : null;
  if (asking && forgettable)
    return (
      <div className="message-actions forget-confirm" role="alert" data-testid="forget-confirm">
        <span className="small">{message.role === "user" ? t.forgetAskMine : t.forgetAskReply}</span>{" "}
        <button type="button" className="small danger" data-testid="forget-yes" onClick={() => actions.onForget(id)}>
          {t.forgetYes}
        </button>{" "}
        <button type="button" className="ghost small" autoFocus onClick={() => setAsking(false)}>
          {t.editCancel}
        </button>
      </div>
    );
  return (
    <div className="message-actions">
      <CopyButton text={() => message.meta?.typed ?? message.content} label={t.copy} testId="copy-message" />
      {editable && (
        <button type="button" className="msg-action" data-testid="edit-message" onClick={onStartEdit}>
          {t.edit}
        </button>
      )}
      {versions && versions.count > 1 && (
        <span className="versions" data-testid="versions">
          <button type="button" className="msg-action" aria-label={t.previousVersion} disabled={versions.current <= 1} onClick={() => actions!.onShowVersion(versions.current - 1)}>
            ‹
          </button>
          <span data-testid="version-position">{t.versionOf(versions.current, versions.count)}</span>
          <button type="button" className="msg-action" aria-label={t.nextVersion} disabled={versions.current >= versions.count} onClick={() => actions!.onShowVersion(versions.current + 1)}>
            ›
          </button>
        </span>
      )}
      {versions && (
        <button type="button" className="msg-action" data-testid="regenerate" title={t.regenerateTitle} onClick={actions!.onRegenerate}>
          ↻ {t.regenerate}
        </button>
      )}
      {forgettable && (
        <button type="button" className="msg-action" data-testid="forget-message" onClick={() => setAsking(true)}>
          {t.forget}
        </button>
      )}
    </div>
  );
}

/** A sent message being edited in place: Enter sends, Shift+Enter a new line, Esc cancels. */
export function EditBox({ initial, onSend, onCancel }: { initial: string; onSend: (text: string) => void; onCancel: () => void }) {
  const t = useStrings();
  const [text, setText] = useState(initial);
  const keys = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Escape") onCancel();
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (text.trim()) onSend(text);
    }
  };
  return (
    <div className="edit-box">
      <textarea aria-label={t.editLabel} data-testid="edit-text" value={text} autoFocus rows={Math.min(8, text.split("\n").length + 1)} onChange={(e) => setText(e.target.value)} onKeyDown={keys} />
      <div className="edit-buttons">
        <span className="muted small">{t.editHint}</span>
        <button type="button" className="ghost small" onClick={onCancel}>
          {t.editCancel}
        </button>
        <button type="button" className="small" data-testid="edit-send" disabled={!text.trim()} onClick={() => onSend(text)}>
          {t.editSend}
        </button>
      </div>
    </div>
  );
}
