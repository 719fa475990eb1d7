import { useEffect, useRef } from "react";
import { api } from "./api";
import { Composer } from "./components/Composer";
import { ErrorBanner } from "./components/ErrorBanner";
import { MessageList } from "./components/MessageList";
import { ModelBadge } from "./components/ModelBadge";
import { useStrings } from "./i18n";
import { useChat } from "./useChat";

export function App() {
  const t = useStrings();
  const { state, model, send, retry, stop, dismissError } = useChat();
  const composer = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const off = api.onFocusComposer(() => composer.current?.focus());
    return () => {
      off.then((f) => f());
    };
  }, []);

  return (
    <div className="app">
      <header>
        <h1>{t.title}</h1>
        <ModelBadge status={model} />
      </header>
      <main>
        <MessageList messages={state.messages} streaming={state.streaming} loaded={state.loaded} />
      </main>
      {state.error && <ErrorBanner error={state.error} onRetry={retry} onDismiss={dismissError} />}
      <Composer ref={composer} busy={state.streaming !== null} onSend={send} onStop={stop} />
    </div>
  );
}
