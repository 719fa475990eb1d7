// How the UI reaches the core. Inside the app: Tauri's IPC. In a browser (the web app a
// home core serves to the phone): the same commands and events over the core's link, a
// WebSocket the session cookie opens. A call made while the link is down waits and is
// sent when it is back, with the id it was given, so the core runs it once.
import { invoke as tauriInvoke } from "@tauri-apps/api/core";
import { emit as tauriEmit, listen as tauriListen, type UnlistenFn } from "@tauri-apps/api/event";

export type { UnlistenFn };

/** Whether this page runs in a browser rather than inside the app's window. */
export function inBrowser(): boolean {
  return typeof window !== "undefined" && !("__TAURI_INTERNALS__" in window);
}

/** The core's events, as the app's window hears them. */
const CORE_EVENT = "sidecar://event";

/** The close code the core sends to a device it no longer allows. */
const NOT_ALLOWED = 4401;

type Frame =
  | { t: "reply"; id: string; outcome: { ok: unknown } | { err: unknown } }
  | { t: "event"; event: unknown };

type Pending = { name: string; args: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };

/** How the browser's link is: up, trying again, or refused (the session ended). */
export type WebLinkState = "connecting" | "up" | "down" | "refused";

/** One link to the core for this page. */
export class WebLink {
  private socket: WebSocket | null = null;
  private pending = new Map<string, Pending>();
  private handlers = new Set<(event: unknown) => void>();
  private watchers = new Set<(state: WebLinkState) => void>();
  private retry = 500;
  private next = 0;
  state: WebLinkState = "connecting";

  constructor(private readonly url: string) {}

  call(name: string, args: unknown): Promise<unknown> {
    const id = `${Date.now().toString(36)}-${(this.next++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { name, args, resolve, reject });
      this.open();
      this.send(id);
    });
  }

  onEvent(handler: (event: unknown) => void): () => void {
    this.handlers.add(handler);
    this.open();
    return () => this.handlers.delete(handler);
  }

  onState(watcher: (state: WebLinkState) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private send(id: string) {
    const call = this.pending.get(id);
    if (!call || this.socket?.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ t: "call", id, name: call.name, args: call.args ?? null }));
  }

  private setState(state: WebLinkState) {
    this.state = state;
    this.watchers.forEach((watch) => watch(state));
  }

  private open() {
    if (this.socket || this.state === "refused") return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 500;
      this.setState("up");
      for (const id of this.pending.keys()) this.send(id);
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as Frame;
      if (frame.t === "event") {
        this.handlers.forEach((handle) => handle(frame.event));
        return;
      }
      const call = this.pending.get(frame.id);
      if (!call) return;
      this.pending.delete(frame.id);
      if ("ok" in frame.outcome) call.resolve(frame.outcome.ok);
      else call.reject(frame.outcome.err);
    };
    socket.onclose = (closed) => {
      this.socket = null;
      if (closed.code === NOT_ALLOWED) {
        this.setState("refused");
        this.pending.forEach((call) => call.reject({ message: "signed_out", retryable: false }));
        this.pending.clear();
        return;
      }
      this.setState("down");
      // What waits is sent again, under the same ids, once the link is back.
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 10_000);
    };
  }
}

let link: WebLink | null = null;

/** This page's link to the core (made on first use). */
export function webLink(): WebLink {
  link ??= new WebLink(`wss://${location.host}/link`);
  return link;
}

/** Runs a command of the core's table. */
export function invoke<T>(name: string, args?: Record<string, unknown>): Promise<T> {
  if (!inBrowser()) return tauriInvoke<T>(name, args);
  return webLink().call(name, args ?? null) as Promise<T>;
}

/** Listens to an event; in a browser only the core's own are heard (the window's
 * others come from the app's shell: its tray, hotkeys and notifications). */
export function listen<T>(name: string, handler: (event: { payload: T }) => void): Promise<UnlistenFn> {
  if (!inBrowser()) return tauriListen<T>(name, handler);
  if (name !== CORE_EVENT) return Promise.resolve(() => undefined);
  return Promise.resolve(webLink().onEvent((payload) => handler({ payload: payload as T })));
}

/** Tells the app's other windows (the character); a browser has none. */
export function emit(name: string, payload?: unknown): Promise<void> {
  if (!inBrowser()) return tauriEmit(name, payload);
  return Promise.resolve();
}

/** The browser's session on the core: which device it is, or null before signing in. */
export async function webSession(): Promise<{ id: number; name: string } | null> {
  const answer = await fetch("/web/session", { credentials: "same-origin", cache: "no-store" });
  if (answer.status === 401) return null;
  if (!answer.ok) throw new Error(`session: ${answer.status}`);
  return ((await answer.json()) as { device: { id: number; name: string } }).device;
}

/** Opens a session with the pairing code the home computer shows; the refusal's words, if any. */
export async function signIn(code: string, name: string): Promise<string | null> {
  const answer = await fetch("/web/session", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code: code.trim(), name: name.trim() }),
  });
  if (answer.ok) return null;
  const body = (await answer.json().catch(() => ({}))) as { message?: string };
  return body.message ?? `${answer.status}`;
}

/** Ends this browser's session: the core forgets it as a device. */
export async function signOut(): Promise<void> {
  await fetch("/web/session/end", { method: "POST", credentials: "same-origin" });
}
