// The web app's link to the home core (transport.ts): calls made while it is down wait
// and are sent once it is back, under the ids they were given (the core runs a call it
// has seen once); a revoked session ends the link and fails what waits.
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebLink, type WebLinkState } from "../../transport";

class FakeSocket {
  static made: FakeSocket[] = [];
  static OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  reply(id: string, outcome: unknown) {
    this.onmessage?.({ data: JSON.stringify({ t: "reply", id, outcome }) });
  }
}

describe("the web app's link", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    FakeSocket.made = [];
  });

  it("sends a call made while down once the link is back, under the same id, and hears events", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeSocket);
    const link = new WebLink("wss://home:47200/link");
    const states: WebLinkState[] = [];
    link.onState((s) => states.push(s));
    const events: unknown[] = [];
    link.onEvent((e) => events.push(e));
    const first = FakeSocket.made[0];
    first.open();
    first.drop();
    expect(states).toEqual(["up", "down"]);

    const answer = link.call("send_message", { text: "hola" });
    expect(first.sent).toEqual([]);
    vi.advanceTimersByTime(600);
    const second = FakeSocket.made[1];
    second.open();
    expect(second.sent).toHaveLength(1);
    const call = JSON.parse(second.sent[0]);
    expect(call).toMatchObject({ t: "call", name: "send_message", args: { text: "hola" } });

    // Dropped before the answer: sent again, with its id, once.
    second.drop();
    vi.advanceTimersByTime(1100);
    const third = FakeSocket.made[2];
    third.open();
    expect(third.sent.map((s) => JSON.parse(s).id)).toEqual([call.id]);
    third.reply(call.id, { ok: { reply: "¡Hola!" } });
    await expect(answer).resolves.toEqual({ reply: "¡Hola!" });
    third.onmessage?.({ data: JSON.stringify({ t: "event", event: { type: "reminders_changed" } }) });
    expect(events).toEqual([{ type: "reminders_changed" }]);
  });

  it("ends when the core revokes the session: what waits fails, nothing is tried again", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeSocket);
    const link = new WebLink("wss://home:47200/link");
    const answer = link.call("list_chats", null);
    FakeSocket.made[0].drop(4401);
    await expect(answer).rejects.toMatchObject({ retryable: false });
    expect(link.state).toBe("refused");
    vi.advanceTimersByTime(20_000);
    expect(FakeSocket.made).toHaveLength(1);
  });
});
