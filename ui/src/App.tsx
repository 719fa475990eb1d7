import { useEffect, useRef, useState } from "react";
import { api } from "./api";
import { Composer } from "./components/Composer";
import { ErrorBanner } from "./components/ErrorBanner";
import { MessageList } from "./components/MessageList";
import { ModelBadge } from "./components/ModelBadge";
import { MemoryView } from "./components/MemoryView";
import { ModelPicker } from "./components/ModelPicker";
import { SettingsView } from "./components/SettingsView";
import { UsageView } from "./components/UsageView";
import { useStrings } from "./i18n";
import { useChat } from "./useChat";

type View = "chat" | "memory" | "usage" | "settings";

export function App() {
  const t = useStrings();
  const { state, model, send, retry, stop, dismissError } = useChat();
  const composer = useRef<HTMLTextAreaElement>(null);
  const [view, setView] = useState<View>("chat");
  // Bumped when leaving Settings so the model picker sees new providers.
  const [settingsVersion, setSettingsVersion] = useState(0);

  useEffect(() => {
    const off = api.onFocusComposer(() => {
      setView("chat");
      composer.current?.focus();
    });
    return () => {
      off.then((f) => f());
    };
  }, []);

  const go = (next: View) => {
    if (view === "settings" && next !== "settings") setSettingsVersion((v) => v + 1);
    setView(next);
  };

  return (
    <div className="app">
      <header>
        <h1>{t.title}</h1>
        <nav>
          {(["chat", "memory", "usage", "settings"] as const).map((v) => (
            <button
              key={v}
              className={`tab${view === v ? " active" : ""}`}
              aria-current={view === v ? "page" : undefined}
              data-testid={`nav-${v}`}
              onClick={() => go(v)}
            >
              {{ chat: t.navChat, memory: t.navMemory, usage: t.navUsage, settings: t.navSettings }[v]}
            </button>
          ))}
        </nav>
        <div className="header-right">
          {view === "chat" && <ModelPicker refreshKey={settingsVersion} />}
          <ModelBadge status={model} />
        </div>
      </header>
      {view === "chat" && (
        <>
          <main>
            <MessageList messages={state.messages} streaming={state.streaming} loaded={state.loaded} />
          </main>
          {state.error && <ErrorBanner error={state.error} onRetry={retry} onDismiss={dismissError} />}
          <Composer ref={composer} busy={state.streaming !== null} onSend={send} onStop={stop} />
        </>
      )}
      {view === "memory" && (
        <main>
          <MemoryView />
        </main>
      )}
      {view === "usage" && (
        <main>
          <UsageView />
        </main>
      )}
      {view === "settings" && (
        <main>
          <SettingsView />
        </main>
      )}
    </div>
  );
}
