import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { foldHistory } from "./chatState";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";
import { message } from "../../test/fixtures";


async function send(text: string) {
  const user = userEvent.setup();
  await user.type(screen.getByTestId("composer"), text);
  await user.keyboard("{Enter}");
  return user;
}

describe("agent activity in the chat", () => {
  it("shows tool chips running then done, collapsible with arguments and result", async () => {
    const core = new FakeCore();
    renderApp();
    const user = await send("weather in Madrid?");
    await act(() => core.toolStarted("c1", "get_weather", '{"location":"Madrid"}'));
    const chip = screen.getByTestId("tool-chip");
    expect(chip).toHaveAttribute("data-state", "running");
    expect(chip).toHaveTextContent("get_weather");
    expect(chip).toHaveTextContent("running…");

    await act(() => core.toolFinished("c1", "get_weather", '{"temperature_c":14}'));
    expect(chip).toHaveAttribute("data-state", "done");
    await user.click(within(chip).getByText("get_weather"));
    expect(chip).toHaveAttribute("open");
    expect(chip).toHaveTextContent('"location": "Madrid"');
    expect(chip).toHaveTextContent('"temperature_c": 14');

    await act(() => core.delta("It is 14 °C."));
    await act(async () =>
      core.finish("It is 14 °C.", "complete", "stop", {
        provider: "primary",
        model: "gpt-4o-mini",
        usage: { input_tokens: 1234, output_tokens: 56, cached_tokens: 0 },
        cost_usd: 0.00022,
      }),
    );
    const reply = await screen.findByTestId("message-assistant");
    // The chips stay on the finished reply, with a cost line under it.
    expect(within(reply).getByTestId("tool-chip")).toHaveAttribute("data-state", "done");
    expect(within(reply).getByTestId("cost-line")).toHaveTextContent("gpt-4o-mini · 1,234 in / 56 out · $0.0002");
  });

  it("marks a failed tool", async () => {
    const core = new FakeCore();
    renderApp();
    await send("read that page");
    await act(() => core.toolStarted("c1", "read_url", '{"url":"http://127.0.0.1"}'));
    await act(() => core.toolFinished("c1", "read_url", '{"error":"refused"}', true));
    expect(screen.getByTestId("tool-chip")).toHaveAttribute("data-state", "error");
    expect(screen.getByTestId("tool-chip")).toHaveTextContent("failed");
  });

  it("says when a provider is retried or a fallback answers, and marks the reply", async () => {
    const core = new FakeCore();
    renderApp();
    await send("hello");
    await act(() => core.notice({ kind: "retrying", provider: "primary", attempt: 1, delay_ms: 1500, reason: "HTTP 429" }));
    expect(screen.getByTestId("notice")).toHaveTextContent("primary is busy; trying again in 1.5 s…");
    await act(() => core.notice({ kind: "falling_back", from: "primary", to: "backup", reason: "HTTP 503" }));
    expect(screen.getByTestId("notice")).toHaveTextContent("primary failed; asking backup…");
    await act(() => core.delta("Hi"));
    expect(screen.queryByTestId("notice")).not.toBeInTheDocument();
    await act(async () =>
      core.finish("Hi", "complete", "stop", { provider: "backup", fallback_from: "primary", continued: 1 }),
    );
    const markers = await screen.findByTestId("markers");
    expect(markers).toHaveTextContent("Answered by backup because primary failed");
    expect(markers).toHaveTextContent("Continued after the length limit");
  });

  it("a reply moved off a provider whose budget is spent says why, not that it failed", async () => {
    const core = new FakeCore();
    renderApp();
    await send("hello");
    const why = "today's budget for paid is spent (0.02 EUR of 0.01 EUR); allow more today under Usage";
    await act(async () => core.finish("Hi", "complete", "stop", { provider: "local", fallback_from: "paid", fallback_reason: why }));
    const markers = await screen.findByTestId("markers");
    expect(markers).toHaveTextContent(`Answered by the offline model: ${why}`);
    expect(markers).not.toHaveTextContent("failed");
  });

  it("the offline model standing in is named by what it is, not by an internal id", async () => {
    const core = new FakeCore();
    renderApp();
    await send("hello");
    await act(async () => core.finish("Hi", "complete", "stop", { provider: "local", model: "SmolLM2-135M-Instruct", fallback_from: "lmstudio" }));
    const markers = await screen.findByTestId("markers");
    expect(markers).toHaveTextContent("Answered by the offline model (SmolLM2-135M-Instruct) because lmstudio failed");
    expect(markers).not.toHaveTextContent("by local");
  });

  it("a corrected claim replaces the text shown so far", async () => {
    const core = new FakeCore();
    renderApp();
    await send("remind me at 9");
    await act(() => core.delta("I've set a reminder."));
    await act(() => core.notice({ kind: "corrected", check: "claimed_reminder_without_tool" }));
    const live = screen.getByTestId("streaming-message");
    expect(live).not.toHaveTextContent("I've set a reminder.");
    expect(within(live).getByTestId("notice")).toHaveTextContent("Checking that answer…");
    await act(async () => core.finish("I can't set reminders yet.", "complete", "stop", { corrected: true }));
    expect(await screen.findByTestId("markers")).toHaveTextContent("Corrected");
  });

  it("an unknown price says so instead of $0", async () => {
    const core = new FakeCore();
    renderApp();
    await send("hi");
    await act(async () =>
      core.finish("Hello", "complete", "stop", { model: "mystery-1", usage: { input_tokens: 5, output_tokens: 2, cached_tokens: 0 } }),
    );
    await waitFor(() => expect(screen.getByTestId("cost-line")).toHaveTextContent("price unknown"));
  });
});

describe("history folding", () => {
  it("puts stored tool calls and results on the reply that followed them", () => {
    const base = { conversation_id: 1, status: "complete" as const, finish_reason: null, created_at: "" };
    const shown = foldHistory([
      message({ ...base, id: 1, role: "user", content: "time?" }),
      message({ ...base, id: 2, role: "assistant", content: "", tool_calls: [{ id: "a", name: "get_current_time", arguments: "{}" }] }),
      message({ ...base, id: 3, role: "tool", content: '{"local":"13:00"}', tool_call_id: "a" }),
      message({ ...base, id: 4, role: "assistant", content: "It is 13:00.", meta: { cost_usd: 0 , usage: { input_tokens: 1, output_tokens: 1, cached_tokens: 0 } } }),
    ]);
    expect(shown.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(shown[1].tools).toEqual([
      { id: "a", name: "get_current_time", arguments: "{}", result: '{"local":"13:00"}', isError: false },
    ]);
    expect(shown[1].meta?.cost_usd).toBe(0);
  });
});
