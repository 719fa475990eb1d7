import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ChannelsView } from "./api";
import { FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";

const connected = (extra: Partial<ChannelsView["telegram"]> = {}): ChannelsView => ({
  owner: true,
  telegram: {
    enabled: true,
    token: { kind: "keychain" },
    health: { channel: "telegram", link: { state: "connected", since: "2026-11-23T09:15:00Z" }, last_message_at: null },
    paired_chats: [],
    pairing_code: null,
    pairing_expires_at: null,
    ...extra,
  },
});

async function openSettings() {
  renderApp();
  const user = userEvent.setup();
  await user.click(screen.getByTestId("nav-settings"));
  return { user, card: await screen.findByTestId("telegram-card") };
}

describe("settings → channels", () => {
  it("starts with Telegram off and saves a token without showing it back", async () => {
    const core = new FakeCore();
    core.handlers.set_telegram_token = () => {
      core.channels = connected();
      return core.channels;
    };
    const { user, card } = await openSettings();
    expect(within(card).getByTestId("telegram-state")).toHaveTextContent("Off");
    expect(card).toHaveTextContent("Token: none yet");
    expect(within(card).getByTestId("paired-none")).toBeInTheDocument();
    await user.type(within(card).getByTestId("telegram-token"), "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    await user.click(within(card).getByTestId("save-telegram-token"));
    expect(core.invoked("set_telegram_token")[0].args).toEqual({ token: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ" });
    await waitFor(() => expect(within(card).getByTestId("telegram-state")).toHaveTextContent(/Connected since/));
    expect(card).toHaveTextContent("Token: in the system keychain");
    expect(within(card).getByTestId("telegram-token")).toHaveValue("");
    expect(card).not.toHaveTextContent("ABCDEFGHIJ");
  });

  it("shows the pairing code, then the paired chat when the core says it paired", async () => {
    const core = new FakeCore();
    core.channels = connected();
    core.handlers.new_telegram_code = () => {
      core.channels = connected({ pairing_code: "482913", pairing_expires_at: "2026-11-23T09:25:00Z" });
      return core.channels;
    };
    core.handlers.unpair_telegram = () => {
      core.channels = connected();
      return core.channels;
    };
    const { user, card } = await openSettings();
    await user.click(within(card).getByTestId("pair-telegram"));
    expect(await within(card).findByTestId("pairing-instructions")).toHaveTextContent("send: /start 482913");
    // The bot paired the chat: the core says so and the card follows.
    core.channels = connected({ paired_chats: [5550001] });
    await core.event({ type: "channels_changed" });
    expect(await within(card).findByTestId("paired-chat")).toHaveTextContent("5550001");
    expect(within(card).queryByTestId("pairing-instructions")).toBeNull();
    await user.click(within(card).getByText("Unpair"));
    expect(core.invoked("unpair_telegram")[0].args).toEqual({ chat: 5550001 });
    expect(await within(card).findByTestId("paired-none")).toBeInTheDocument();
    expect(card).toHaveTextContent("Chat 5550001 unpaired");
  });

  it("says when Telegram is down and why, and when the token was refused", async () => {
    const core = new FakeCore();
    core.channels = connected();
    core.channels.telegram.health!.link = { state: "down", since: "2026-11-23T09:15:00Z", reason: "cannot reach the Telegram server" };
    const { card } = await openSettings();
    expect(within(card).getByTestId("telegram-state")).toHaveTextContent(/Disconnected since .*cannot reach the Telegram server/);
    core.channels = connected();
    core.channels.telegram.health!.link = { state: "needs_setup", what: "Telegram refused the bot token" };
    await core.event({ type: "channels_changed" });
    await waitFor(() => expect(within(card).getByTestId("telegram-state")).toHaveTextContent("refused the bot token"));
    expect(within(card).queryByTestId("pair-telegram")).toBeNull();
  });

  it("shows the phone rows and the idle minutes in the routing table", async () => {
    const core = new FakeCore();
    const { user } = await openSettings();
    expect(screen.getByTestId("sink-telegram")).toHaveValue("all");
    const idle = screen.getByTestId("phone-when-idle");
    expect(idle).toHaveValue(10);
    await user.clear(idle);
    await user.type(idle, "30");
    await user.click(screen.getByTestId("save-proactive"));
    expect(core.invoked("save_proactive_config")[0].args).toMatchObject({ config: { sinks: { phone_when_idle_minutes: 30 } } });
  });

  it("shows a message from the phone and its reply in the desktop chat", async () => {
    const core = new FakeCore();
    renderApp();
    await screen.findByTestId("composer");
    core.history = [{ id: 7, conversation_id: 1, role: "user", content: "¿me lees desde el móvil?", created_at: "2026-11-23T09:20:00Z", channel: "telegram" } as never];
    await core.event({ type: "turn_started", conversation_id: 1, user_message_id: 7, channel: "telegram" });
    expect(await screen.findByText("¿me lees desde el móvil?")).toBeInTheDocument();
    core.history = [
      ...core.history,
      { id: 8, conversation_id: 1, role: "assistant", content: "Sí, te leo.", created_at: "2026-11-23T09:20:02Z", channel: "telegram" } as never,
    ];
    await core.event({ type: "turn_finished", conversation_id: 1, message_id: 8, channel: "telegram", status: "complete", finish_reason: "stop", usage: null, meta: {} });
    expect(await screen.findByText("Sí, te leo.")).toBeInTheDocument();
    expect(screen.getAllByTestId("channel-tag").map((tag) => tag.textContent)).toEqual(["on Telegram", "on Telegram"]);
  });
});
