import { useEffect, useRef } from "react";
import Markdown, { type Components } from "react-markdown";
import { api } from "../api";
import type { ShownMessage } from "../chatState";
import { useStrings } from "../i18n";

const SAFE_LINK = /^(https?:|mailto:)/i;

/** Links in replies open in the browser; anything else (javascript:, file:) is inert. */
const markdownComponents: Components = {
  a: ({ href, children }) => (
    <a
      href={href}
      title={href}
      onClick={(e) => {
        e.preventDefault();
        if (href && SAFE_LINK.test(href)) api.openExternal(href).catch(() => undefined);
      }}
    >
      {children}
    </a>
  ),
};

function Bubble({ message, live }: { message: ShownMessage; live?: boolean }) {
  const t = useStrings();
  const marker =
    message.status === "stopped"
      ? t.stopped
      : message.status === "interrupted"
        ? t.interrupted
        : message.finishReason === "length"
          ? t.truncated
          : null;
  return (
    <article
      className={`message ${message.role}${live ? " live" : ""}`}
      data-testid={live ? "streaming-message" : `message-${message.role}`}
      data-status={message.status}
    >
      <div className="author">{message.role === "user" ? t.you : t.sidecar}</div>
      <div className="content">
        {message.role === "assistant" ? (
          message.content === "" && live ? (
            <span className="thinking" aria-live="polite">{t.thinking}</span>
          ) : (
            <Markdown components={markdownComponents}>{message.content}</Markdown>
          )
        ) : (
          <p className="plain">{message.content}</p>
        )}
      </div>
      {marker && <div className="marker">{marker}</div>}
    </article>
  );
}

export function MessageList({
  messages,
  streaming,
  loaded,
}: {
  messages: ShownMessage[];
  streaming: ShownMessage | null;
  loaded: boolean;
}) {
  const t = useStrings();
  const end = useRef<HTMLDivElement>(null);
  const lastLength = streaming?.content.length ?? 0;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length, lastLength]);

  if (loaded && messages.length === 0 && !streaming) {
    return (
      <div className="empty" data-testid="empty-state">
        <h2>{t.emptyTitle}</h2>
        <p>{t.emptyBody}</p>
        <p className="hint">{t.shortcutHint}</p>
      </div>
    );
  }
  return (
    <div className="messages" data-testid="message-list" role="log" aria-live="polite">
      {messages.map((m) => (
        <Bubble key={m.key} message={m} />
      ))}
      {streaming && <Bubble message={streaming} live />}
      <div ref={end} />
    </div>
  );
}
