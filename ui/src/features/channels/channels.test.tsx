import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ChannelsView } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";

const connected = (extra: Partial<ChannelsView["telegram"]> = {}): ChannelsView => ({
  owner: true,
  telegram: {
    enabled: true,
    token: { kind: "keychain" },
    health: { channel: "telegram", link: { state: "connected", since: "2026-11-23T09:15:00Z" }, last_message_at: null },
    paired_chats: [],
    pairing_code: null,
    pairing_expires_at: null,
    held: 0,
    ...extra,
  },
  whatsapp: { enabled: false, health: null, own_number: null, qr: null, allowed_numbers: [], held: 0 },
});

async function openSettings() {
  renderApp();
  const user = userEvent.setup();
  await openSettingsSection(user, "channels");
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
    expect(screen.getByRole("status")).toHaveTextContent("Chat 5550001 unpaired");
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

  it("says how many reminders wait for a phone that is down, in both languages", async () => {
    const core = new FakeCore();
    core.channels = connected({ held: 2 });
    core.channels.telegram.health!.link = { state: "down", since: "2026-11-23T09:15:00Z", reason: "cannot reach the Telegram server" };
    const { card } = await openSettings();
    expect(within(card).getByTestId("telegram-held")).toHaveTextContent("2 reminders or results wait to be sent here. They go in order when Telegram can take them");
    expect(screen.queryByTestId("whatsapp-held")).toBeNull();
    core.channels = { ...connected(), whatsapp: { ...core.channels.whatsapp, enabled: true, own_number: "5491155551234", held: 1 } };
    await core.event({ type: "channels_changed" });
    await waitFor(() => expect(screen.getByTestId("whatsapp-held")).toHaveTextContent("1 reminder or result waits to be sent here. It goes when WhatsApp can take it"));
    expect(within(card).queryByTestId("telegram-held")).toBeNull();
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

  it("shows WhatsApp's QR code, says when the last one expired, then the linked number", async () => {
    const core = new FakeCore();
    const pairing: ChannelsView["whatsapp"] = {
      enabled: true,
      health: { channel: "whatsapp", link: { state: "needs_setup", what: "Scan the QR code with WhatsApp on your phone" }, last_message_at: null },
      own_number: null,
      qr: { svg: "<svg xmlns='http://www.w3.org/2000/svg'/>", expires_at: "2026-11-23T09:21:00Z", expired_before: 1 },
      allowed_numbers: [],
      held: 0,
    };
    core.channels = { ...core.channels, whatsapp: pairing };
    core.handlers.unlink_whatsapp = () => core.channels;
    const { user } = await openSettings();
    const card = screen.getByTestId("whatsapp-card");
    expect(within(card).getByTestId("whatsapp-state")).toHaveTextContent("Scan the QR code");
    expect(within(card).getByRole("img")).toHaveAttribute("src", expect.stringContaining("data:image/svg+xml"));
    expect(within(card).getByTestId("qr-expired")).toHaveTextContent("previous code expired");
    core.channels = {
      ...core.channels,
      whatsapp: { ...pairing, qr: null, own_number: "5491155551234", health: { channel: "whatsapp", link: { state: "connected", since: "2026-11-23T09:20:30Z" }, last_message_at: null } },
    };
    await core.event({ type: "channels_changed" });
    expect(await within(card).findByTestId("whatsapp-linked")).toHaveTextContent("Linked to +5491155551234");
    expect(within(card).queryByTestId("whatsapp-qr")).toBeNull();
    await user.click(within(card).getByTestId("whatsapp-unlink"));
    expect(core.invoked("unlink_whatsapp")).toHaveLength(1);
    expect(await screen.findByText(/session was deleted/)).toBeInTheDocument();
  });
});
