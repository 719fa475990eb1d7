import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";

describe("push-to-talk", () => {
  it("the microphone listens with a level meter, and a second press sends what was heard", async () => {
    const core = new FakeCore();
    core.handlers.voice_start = () => undefined;
    core.handlers.voice_finish = () => "recuérdame llamar a Ana mañana a las 9";
    renderApp();
    const user = userEvent.setup();
    await screen.findByTestId("composer");
    await user.click(screen.getByTestId("voice"));
    expect(core.invoked("voice_start")).toHaveLength(1);
    expect(screen.getByTestId("voice")).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("voice-status")).toHaveTextContent("Listening");
    await act(() => core.event({ type: "voice_level", level: 0.1 }));
    expect(screen.getByRole("meter")).toHaveAttribute("aria-valuenow", "0.1");

    await user.click(screen.getByTestId("voice"));
    await waitFor(() => expect(core.invoked("send_message")).toHaveLength(1));
    expect(core.invoked("send_message")[0].args).toEqual({ text: "recuérdame llamar a Ana mañana a las 9" });
    expect(screen.queryByTestId("voice-status")).not.toBeInTheDocument();
    expect(screen.getByTestId("voice")).toHaveAttribute("aria-pressed", "false");
  });

  it("Escape cancels, words join what is typed, and a refusal says what to do", async () => {
    const core = new FakeCore();
    core.handlers.voice_start = () => undefined;
    core.handlers.voice_finish = () => "a las 10";
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await user.click(screen.getByTestId("voice"));
    await user.keyboard("{Escape}");
    expect(core.invoked("voice_cancel")).toHaveLength(1);
    expect(screen.queryByTestId("voice-status")).not.toBeInTheDocument();

    await user.type(composer, "Llama a Ana");
    await user.click(screen.getByTestId("voice"));
    await user.click(screen.getByTestId("voice"));
    await waitFor(() => expect(composer).toHaveValue("Llama a Ana a las 10"));
    expect(core.invoked("send_message")).toHaveLength(0);

    core.handlers.voice_start = () => Promise.reject({ message: "No microphone found: plug one in, or pick another input in Settings → Voice.", retryable: false });
    await user.click(screen.getByTestId("voice"));
    expect(await screen.findByTestId("attach-refused")).toHaveTextContent("No microphone found");
  });
});
