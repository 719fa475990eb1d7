import { useEffect, useRef, useState } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { api } from "../../api";
import type { Notice } from "../../api";
import type { ShownMessage } from "./chatState";
import { formatCost } from "../../format";
import { useHighlighting } from "./highlighting";
import { AttachmentChip } from "./AttachmentChip";
import { useStrings, type Strings } from "../../i18n";
import { CodeBlock } from "./CodeBlock";
import { EditBox, MessageActions, storedId, type ChatActions } from "./MessageActions";
import { SpontaneousFeedback } from "../proactivity/SpontaneousFeedback";
import { ReminderActions } from "../reminders/ReminderActions";
import { BriefFeedback, TaskActions } from "../tasks/TaskActions";
import { ToolChips } from "./ToolChips";

// Tables, strikethrough, task lists and bare links, as models write them.
const remarkPlugins = [remarkGfm];

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
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  // A wide table scrolls within the reply instead of widening the window.
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

function noticeText(t: Strings, notice: Notice): string {
  switch (notice.kind) {
    case "retrying":
      return t.noticeRetrying(notice.provider, (notice.delay_ms / 1000).toFixed(1));
    case "falling_back":
      return t.noticeFallingBack(notice.from, notice.to);
    case "continued":
      return t.noticeContinued;
    case "corrected":
      return t.noticeCorrected;
    case "iteration_cap":
      return t.noticeCap;
    case "timed_out":
      return t.noticeTimedOut;
    case "summarizing":
      return t.noticeSummarizing;
    case "plan_goes_on":
      return t.noticePlanGoesOn(notice.done, notice.total);
  }
}

/** The offline model's provider id, which the user never named. */
const OFFLINE_PROVIDER = "local";

function markers(t: Strings, message: ShownMessage): string[] {
  const out: string[] = [];
  if (message.status === "stopped") out.push(t.stopped);
  if (message.status === "interrupted") out.push(t.interrupted);
  const meta = message.meta;
  if (meta?.fallback_from && meta.provider) {
    // The offline model by what it is, not by its internal id ("local").
    const by = meta.provider === OFFLINE_PROVIDER ? t.offlineAnswerer(meta.model ?? null) : meta.provider;
    out.push(meta.fallback_reason ? t.fallbackHeldBack(by, meta.fallback_reason) : t.fallbackAnswered(by, meta.fallback_from));
  }
  if (meta?.continued) out.push(t.continuedMarker);
  if (meta?.corrected) out.push(t.correctedMarker);
  if (meta?.iteration_cap) out.push(t.capMarker);
  if (meta?.plan === "abandoned") out.push(t.planLeftMarker);
  if (meta?.checkpoint) out.push(t.checkpointAnnounced(meta.checkpoint));
  if (message.status === "complete" && message.finishReason === "length") out.push(t.truncated);
  return out;
}

function CostLine({ message }: { message: ShownMessage }) {
  const t = useStrings();
  const meta = message.meta;
  if (!meta?.usage) return null;
  const cost = meta.cost_usd === undefined || meta.cost_usd === null ? t.priceUnknown : formatCost(meta.cost_usd, t.decimal);
  return (
    <div className="cost-line" data-testid="cost-line">
      {[meta.model, t.tokens(meta.usage.input_tokens, meta.usage.output_tokens), cost].filter(Boolean).join(" · ")}
    </div>
  );
}

function Bubble({
  message,
  live,
  highlighted,
  actions,
  lastReply = false,
  unanswered = false,
  rehypePlugins,
}: {
  message: ShownMessage;
  live?: boolean;
  highlighted?: boolean;
  actions?: ChatActions;
  lastReply?: boolean;
  /** The user's last message, which no reply followed (the turn failed). */
  unanswered?: boolean;
  rehypePlugins: ReturnType<typeof useHighlighting>;
}) {
  const t = useStrings();
  const [editing, setEditing] = useState(false);
  const marks = unanswered ? [...markers(t, message), t.unansweredMarker] : markers(t, message);
  const proactive = message.meta?.proactive;
  return (
    <article
      className={`message ${message.role}${live ? " live" : ""}${proactive ? " proactive" : ""}${highlighted ? " highlighted" : ""}`}
      data-testid={live ? "streaming-message" : `message-${message.role}`}
      data-key={message.key}
      data-proactive={proactive}
      data-status={message.status}
    >
      <div className="author">
        {message.role === "user" ? (message.phone === "api" ? t.aProgram : t.you) : t.sidecar}
        {message.phone && (
          <span className="channel-tag" data-testid="channel-tag">
            {t.viaChannel(message.phone)}
          </span>
        )}
        {proactive && (
          <span className="proactive-tag" data-testid="proactive-tag">
            {proactive === "reminder" ? t.tagReminder : t.tagSpokeFirst}
          </span>
        )}
        {message.meta?.task != null && message.role === "user" && (
          <span className="proactive-tag" data-testid="task-tag">
            {t.taskScheduled}
          </span>
        )}
      </div>
      <ToolChips tools={message.tools} />
      {live && message.notice && (
        <div className="notice" data-testid="notice" role="status">
          {noticeText(t, message.notice)}
        </div>
      )}
      <div className="content">
        {message.role === "assistant" ? (
          message.content === "" && live ? (
            <span className="thinking" aria-live="polite">{t.thinking}</span>
          ) : (
            <Markdown components={markdownComponents} remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins}>
              {message.content}
            </Markdown>
          )
        ) : editing && actions ? (
          <EditBox
            initial={message.meta?.typed ?? message.content}
            onCancel={() => setEditing(false)}
            onSend={(text) => {
              setEditing(false);
              actions.onEdit(storedId(message)!, text);
            }}
          />
        ) : (
          <>
            {(message.meta?.typed ?? message.content) !== "" && <p className="plain">{message.meta?.typed ?? message.content}</p>}
            {message.meta?.attachments && message.meta.attachments.length > 0 && (
              <div className="message-files" data-testid="message-files">
                {message.meta.attachments.map((f) => (
                  <AttachmentChip key={f.name} file={f} />
                ))}
              </div>
            )}
          </>
        )}
      </div>
      {marks.length > 0 && (
        <div className="marker" data-testid="markers">
          {marks.join(" · ")}
        </div>
      )}
      {!live && proactive === "reminder" && message.meta?.reminder_id && storedId(message) !== null && (
        <ReminderActions message={message} messageId={storedId(message)!} />
      )}
      {!live && proactive && proactive !== "reminder" && storedId(message) !== null && <SpontaneousFeedback messageId={storedId(message)!} />}
      {!live && message.role === "assistant" && message.meta?.task != null && message.meta.command && !message.meta.handled && message.status === "complete" && <TaskActions taskId={message.meta.task} />}
      {!live && message.role === "assistant" && message.meta?.brief && storedId(message) !== null && <BriefFeedback messageId={storedId(message)!} />}
      {!live && <CostLine message={message} />}
      {!live && !editing && <MessageActions message={message} actions={actions} lastReply={lastReply} onStartEdit={() => setEditing(true)} />}
    </article>
  );
}

/** The window's shortcut as it is set now (it can be changed in Settings → Desktop). */
function ShortcutHint() {
  const t = useStrings();
  const [hotkey, setHotkey] = useState<string | null>(null);
  useEffect(() => {
    api.preferences().then((p) => setHotkey(p.hotkey), () => setHotkey(null));
  }, []);
  return hotkey ? (
    <p className="hint" data-testid="shortcut-hint">
      {t.shortcutHint(hotkey)}
    </p>
  ) : null;
}

export function MessageList({
  messages,
  streaming,
  loaded,
  highlight = null,
  demo = false,
  actions,
}: {
  messages: ShownMessage[];
  streaming: ShownMessage | null;
  loaded: boolean;
  /** A message to bring into view (a clicked notification). */
  highlight?: number | null;
  /** The tiny built-in model answers: the empty chat says what that means. */
  demo?: boolean;
  /** What can be done with the messages (copy works everywhere). */
  actions?: ChatActions;
}) {
  const t = useStrings();
  const end = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const lastLength = streaming?.content.length ?? 0;
  useEffect(() => {
    if (highlight !== null) return;
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length, lastLength, highlight]);
  useEffect(() => {
    if (highlight === null) return;
    list.current?.querySelector(`[data-key="m${highlight}"]`)?.scrollIntoView?.({ block: "center" });
  }, [highlight, messages.length]);

  // The reply Regenerate writes again: the last one of the model's, after the last thing the user said.
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const lastAnswer = messages.findLastIndex((m) => m.role === "assistant" && !m.meta?.proactive);
  const lastReply = lastAnswer > lastUser ? lastAnswer : -1;
  const rehypePlugins = useHighlighting(messages.some((m) => m.content.includes("```")) || Boolean(streaming?.content.includes("```")));

  if (loaded && messages.length === 0 && !streaming) {
    return (
      <div className="empty" data-testid="empty-state">
        <h2>{t.emptyTitle}</h2>
        <p data-testid="empty-body">{demo ? t.emptyDemo : t.emptyBody}</p>
        <ShortcutHint />
      </div>
    );
  }
  return (
    // Not read out token by token while a reply streams: the announcer says it once, whole.
    <div className="messages" data-testid="message-list" role="log" aria-live="off" ref={list}>
      {messages.map((m, i) => (
        <Bubble
          key={m.key}
          message={m}
          rehypePlugins={rehypePlugins}
          actions={actions}
          lastReply={i === lastReply}
          unanswered={i === lastUser && lastAnswer < lastUser && !streaming}
          highlighted={highlight !== null && m.key === `m${highlight}`}
        />
      ))}
      {streaming && <Bubble message={streaming} rehypePlugins={rehypePlugins} live />}
      <div ref={end} />
    </div>
  );
}
