// The conversation list beside the chat: search, open, rename, delete with undo.
// It reloads when a turn finishes (titles and order change as people talk).
import { useCallback, useEffect, useRef, useState } from "react";
import { api, toCommandError, type ChatListView, type ChatSummary } from "../../api";
import { useStrings } from "../../i18n";
import { Pin, Star } from "../../components/Icons";
import { Snippet } from "./Snippet";

function when(iso: string, locale: string): string {
  const at = new Date(iso);
  const today = new Date().toDateString() === at.toDateString();
  return new Intl.DateTimeFormat(locale, today ? { hour: "2-digit", minute: "2-digit", hour12: false } : { day: "numeric", month: "short" }).format(at);
}

function Row({
  chat,
  current,
  disabled,
  onOpen,
  onRename,
  onExport,
  onPin,
  onDelete,
}: {
  chat: ChatSummary;
  current: boolean;
  disabled: boolean;
  onOpen: () => void;
  onRename: (title: string) => void;
  onExport: () => void;
  onPin: () => void;
  onDelete: () => void;
}) {
  const t = useStrings();
  const [editing, setEditing] = useState<string | null>(null);
  const title = chat.title ?? t.chatUntitled;
  // Tab stops on the open conversation's actions only; the others take F2 and Delete.
  const stop = current ? 0 : -1;
  if (editing !== null)
    return (
      <li className="chat-row editing">
        <input
          autoFocus
          value={editing}
          aria-label={t.chatRename}
          data-testid="chat-rename-input"
          onChange={(e) => setEditing(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              onRename(editing);
              setEditing(null);
            } else if (e.key === "Escape") setEditing(null);
          }}
          onBlur={() => setEditing(null)}
        />
      </li>
    );
  return (
    <li className={`chat-row${current ? " current" : ""}`} data-testid="chat-row" aria-current={current ? "true" : undefined}>
      <button
        className="chat-open"
        onClick={onOpen}
        disabled={disabled || current}
        title={title}
        aria-keyshortcuts="F2 Delete"
        onKeyDown={(e) => {
          // Another conversation's actions are one key away, not four Tab stops each.
          if (e.key === "F2") {
            e.preventDefault();
            setEditing(chat.title ?? "");
          } else if (e.key === "Delete") {
            e.preventDefault();
            onDelete();
          }
        }}
      >
        <span className="chat-title">
          {chat.pinned && (
            <span className="pin-mark" aria-label={t.chatPinned} title={t.chatPinned}>
              <Pin />{" "}
            </span>
          )}
          {title}
        </span>
        <span className="muted small">
          {when(chat.updated_at, t.locale)} · {t.chatMessages(chat.message_count)}
        </span>
        {chat.matched && (
          <span className="chat-match small" data-testid="chat-match">
            <Snippet text={chat.matched} />
          </span>
        )}
      </button>
      <span className="chat-actions">
        <button className="ghost small" tabIndex={stop} onClick={() => setEditing(chat.title ?? "")} aria-label={t.chatRename} title={t.chatRename}>
          ✎
        </button>
        <button className="ghost small" tabIndex={stop} onClick={onPin} aria-label={chat.pinned ? t.chatUnpin : t.chatPin} title={chat.pinned ? t.chatUnpin : t.chatPin} data-testid="chat-pin" aria-pressed={Boolean(chat.pinned)}>
          {/* Filled while pinned: the state the button changes, as a toggle shows it. */}
          <Star on={Boolean(chat.pinned)} />
        </button>
        <button className="ghost small" tabIndex={stop} onClick={onExport} aria-label={t.chatExport} title={t.chatExport} data-testid="chat-export">
          ⤓
        </button>
        <button className="ghost small danger" tabIndex={stop} onClick={onDelete} disabled={disabled && current} aria-label={t.chatDelete} title={t.chatDelete}>
          ✕
        </button>
      </span>
    </li>
  );
}

export function ChatSidebar({
  busy,
  refreshKey,
  onOpened,
  onSearchMeaning,
}: {
  /** A reply is being written: switching waits. */
  busy: boolean;
  refreshKey: number;
  /** The current conversation changed (opened, or the open one was deleted). */
  onOpened: () => void;
  /** The same words searched by meaning, in Memory. */
  onSearchMeaning?: (query: string) => void;
}) {
  const t = useStrings();
  const [view, setView] = useState<ChatListView | null>(null);
  const [query, setQuery] = useState("");
  const [error, setError] = useState<string | null>(null);
  /** The file a conversation was just exported to. */
  const [exported, setExported] = useState<string | null>(null);
  const [undo, setUndo] = useState<{ id: number; wasCurrent: boolean; title: string } | null>(null);
  const undoTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const reload = useCallback(() => {
    api.listChats(query.trim() || null).then(setView).catch((e) => setError(toCommandError(e).message));
  }, [query]);
  useEffect(() => {
    const timer = setTimeout(reload, query ? 200 : 0);
    return () => clearTimeout(timer);
  }, [reload, refreshKey, query]);
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "turn_finished" || event.type === "turn_started" || event.type === "task_run_finished" || event.type === "task_asks") reload();
    });
    return () => {
      off.then((f) => f());
    };
  }, [reload]);
  useEffect(() => () => clearTimeout(undoTimer.current), []);

  const act = async (work: () => Promise<unknown>, opened = false) => {
    setError(null);
    try {
      await work();
      if (opened) onOpened();
    } catch (e) {
      setError(toCommandError(e).message);
    }
    reload();
  };
  // No question first: Undo is there for the core's keeping period, as in mail apps.
  const remove = (chat: ChatSummary) => {
    const wasCurrent = chat.id === view?.current;
    act(() => api.deleteChat(chat.id), wasCurrent);
    setUndo({ id: chat.id, wasCurrent, title: chat.title ?? t.chatUntitled });
    clearTimeout(undoTimer.current);
    undoTimer.current = setTimeout(() => setUndo(null), (view?.undo_seconds ?? 30) * 1000 - 2000);
  };

  const chats = view?.chats ?? [];
  return (
    <aside className="chat-sidebar" data-testid="chat-sidebar" aria-label={t.chatsTitle}>
      <input type="search" className="chat-search" placeholder={t.chatsSearch} aria-label={t.chatsSearch} value={query} onChange={(e) => setQuery(e.target.value)} data-testid="chat-search" />
      {error && <div className="bad small" role="alert">{error}</div>}
      {undo && (
        <div className="chat-undo" role="status" data-testid="chat-undo">
          <span>{t.chatDeleted(undo.title)}</span>
          <button
            className="ghost small"
            onClick={() => {
              const { id, wasCurrent } = undo;
              setUndo(null);
              act(() => api.undeleteChat(id).then(() => (wasCurrent ? api.openChat(id) : undefined)), wasCurrent);
            }}
          >
            {t.chatUndo}
          </button>
        </div>
      )}
      {exported && (
        <div className="chat-undo" role="status" data-testid="chat-exported">
          <span>{t.chatExported(exported)}</span>
          <button className="ghost small" onClick={() => api.revealPath(exported).catch(() => undefined)}>
            {t.showFolder}
          </button>
        </div>
      )}
      {view && chats.length === 0 && <p className="muted small">{query ? t.chatsNoMatch : t.chatsEmpty}</p>}
      {query.trim() && onSearchMeaning && (
        // This list finds words; Memory's search finds meaning ("gatito" finds the kitten).
        <button type="button" className="link small" data-testid="chats-by-meaning" onClick={() => onSearchMeaning(query.trim())}>
          {t.chatsByMeaning}
        </button>
      )}
      <ul className="chat-list">
        {chats.map((chat) => (
          <Row
            key={chat.id}
            chat={chat}
            current={chat.id === view?.current}
            disabled={busy}
            onOpen={() => act(() => api.openChat(chat.id), true)}
            onRename={(title) => act(() => api.renameChat(chat.id, title))}
            onPin={() => act(() => api.pinChat(chat.id, !chat.pinned))}
            onExport={() =>
              api.exportChat(chat.id).then(
                (path) => setExported(path),
                (e) => setError(toCommandError(e).message),
              )
            }
            onDelete={() => remove(chat)}
          />
        ))}
      </ul>
    </aside>
  );
}
