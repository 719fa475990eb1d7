import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { emit } from "@tauri-apps/api/event";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

describe("push-to-talk", () => {
  it("the microphone listens with a level meter, and a second press sends what was heard", async () => {
    const core = new FakeCore();
    core.handlers.voice_start = () => undefined;
    core.handlers.voice_finish = () => ({ text: "recuérdame llamar a Ana mañana a las 9", review: false });
    renderApp();
    const user = userEvent.setup();
    await screen.findByTestId("composer");
    await user.click(screen.getByTestId("voice"));
    expect(core.invoked("voice_start")).toHaveLength(1);
    expect(screen.getByTestId("voice")).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("voice-status")).toHaveTextContent("Listening");
    await act(() => core.event({ type: "voice_level", level: 0.1 }));
    expect(screen.getByRole("meter")).toHaveAttribute("aria-valuenow", "0.1");
    // The words show as they are heard, before anything is sent.
    await act(() => core.event({ type: "voice_heard", text: "recuérdame llamar" }));
    expect(screen.getByTestId("voice-draft")).toHaveTextContent("recuérdame llamar");
    expect(core.invoked("send_message")).toHaveLength(0);

    // The global shortcut presses the same button (the shell tells the window).
    await act(() => emit("sidecar://talk", null));
    await waitFor(() => expect(core.invoked("send_message")).toHaveLength(1));
    expect(core.invoked("send_message")[0].args).toEqual({ text: "recuérdame llamar a Ana mañana a las 9" });
    expect(screen.queryByTestId("voice-status")).not.toBeInTheDocument();
    expect(screen.getByTestId("voice")).toHaveAttribute("aria-pressed", "false");
  });

  it("Escape cancels, words join what is typed, and a refusal says what to do", async () => {
    const core = new FakeCore();
    core.handlers.voice_start = () => undefined;
    core.handlers.voice_finish = () => ({ text: "a las 10", review: false });
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

    // Read over before sending (Settings → Voice): into an empty box, not sent.
    await user.clear(composer);
    core.handlers.voice_finish = () => ({ text: "llama a Ana", review: true });
    await user.click(screen.getByTestId("voice"));
    await user.click(screen.getByTestId("voice"));
    await waitFor(() => expect(composer).toHaveValue("llama a Ana"));
    expect(core.invoked("send_message")).toHaveLength(0);

    core.handlers.voice_start = () => Promise.reject({ message: "No microphone found: plug one in, or pick another input in Settings → Voice.", retryable: false });
    await user.click(screen.getByTestId("voice"));
    expect(await screen.findByTestId("attach-refused")).toHaveTextContent("No microphone found");
  });
});

describe("spoken replies", () => {
  it("a reply being said can be stopped, and Settings → Voice chooses which replies and the microphone", async () => {
    const core = new FakeCore();
    let view = {
      speak_replies: "voice_only",
      speak_reminders: false,
      review_before_sending: false,
      inputs: ["Built-in Audio", "USB Headset"],
      input_device: null as string | null,
      outputs: ["Built-in Audio", "HDMI"],
      output_device: null as string | null,
      voices: [
        { id: "es", lang: "es" as const, name: "Spain, male voice" },
        { id: "es-419+f3", lang: "es" as const, name: "Latin America, female voice" },
        { id: "en-us", lang: "en" as const, name: "United States, male voice" },
        { id: "en-gb", lang: "en" as const, name: "United Kingdom, male voice" },
      ],
      spanish_voice: "es",
      english_voice: "en-us",
      speed: 1,
      speeds: [0.5, 2] as [number, number],
      speech_model: true,
      models: [
        { role: "hear", name: "Whisper base (multilingual)", megabytes: 148, licence: "MIT", separate_program: false },
        { role: "speak", name: "espeak-ng", megabytes: null, licence: "GPL-3.0-or-later", separate_program: true },
      ],
    };
    core.handlers.voice_view = () => view;
    core.handlers.set_speak_replies = (args) => (view = { ...view, speak_replies: (args as { which: string }).which });
    core.handlers.set_input_device = (args) => (view = { ...view, input_device: (args as { name: string | null }).name });
    core.handlers.set_voice_switch = (args) => {
      const { which, on } = args as { which: "speak_reminders" | "review_before_sending"; on: boolean };
      return (view = { ...view, [which]: on });
    };
    core.handlers.set_output_device = (args) => (view = { ...view, output_device: (args as { name: string | null }).name });
    core.handlers.set_voicing = (args) => {
      const { spanish, english, speed } = args as { spanish: string; english: string; speed: number };
      return (view = { ...view, spanish_voice: spanish, english_voice: english, speed });
    };
    renderApp();
    const user = userEvent.setup();
    await screen.findByTestId("composer");
    await act(() => core.event({ type: "voice_speaking", on: true, problem: null }));
    await user.click(screen.getByTestId("voice-hush"));
    expect(core.invoked("voice_hush")).toHaveLength(1);
    expect(screen.queryByTestId("voice-hush")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Settings" }));
    await user.click(await screen.findByTestId("settings-nav-voice"));
    const settings = await screen.findByTestId("voice-settings");
    await waitFor(() => expect(screen.getByTestId("speak-replies")).toHaveValue("voice_only"));
    expect(settings).toHaveTextContent("Whisper base (multilingual) · 148 MB · MIT");
    expect(settings).toHaveTextContent("espeak-ng · GPL-3.0-or-later (a separate program)");
    await user.selectOptions(screen.getByTestId("speak-replies"), "always");
    expect(core.invoked("set_speak_replies")[0].args).toEqual({ which: "always" });
    await user.selectOptions(screen.getByTestId("voice-input"), "USB Headset");
    expect(core.invoked("set_input_device")[0].args).toEqual({ name: "USB Headset" });
    expect(screen.getByTestId("speak-reminders")).not.toBeChecked();
    await user.click(screen.getByTestId("speak-reminders"));
    expect(core.invoked("set_voice_switch")[0].args).toEqual({ which: "speak_reminders", on: true });
    await waitFor(() => expect(screen.getByTestId("speak-reminders")).toBeChecked());
    await user.selectOptions(screen.getByTestId("voice-output"), "HDMI");
    expect(core.invoked("set_output_device")[0].args).toEqual({ name: "HDMI" });
    // Each language lists its own voices only.
    expect(Array.from(screen.getByTestId("voice-spanish").querySelectorAll("option")).map((o) => o.textContent)).toEqual([
      "Spain, male voice",
      "Latin America, female voice",
    ]);
    await user.selectOptions(screen.getByTestId("voice-spanish"), "es-419+f3");
    expect(core.invoked("set_voicing")[0].args).toEqual({ spanish: "es-419+f3", english: "en-us", speed: 1 });
    // The pace is saved once, when the slider is let go.
    const speed = screen.getByTestId("voice-speed");
    fireEvent.change(speed, { target: { value: "1.25" } });
    expect(screen.getByTestId("voice-speed-value")).toHaveTextContent("1.25×");
    expect(core.invoked("set_voicing")).toHaveLength(1);
    fireEvent.pointerUp(speed);
    await waitFor(() => expect(core.invoked("set_voicing")[1].args).toEqual({ spanish: "es-419+f3", english: "en-us", speed: 1.25 }));
    expect(await screen.findByTestId("voice-note")).toHaveTextContent("Saved.");
    expect(screen.getByTestId("voice-settings")).toHaveTextContent("Ctrl+Alt+Space");
    // The test shows a meter while it listens, then that it is writing, then the words,
    // beside its button.
    let heard: (text: string) => void = () => undefined;
    core.handlers.voice_test_microphone = () => new Promise<string>((done) => (heard = done));
    await user.click(screen.getByTestId("voice-test-microphone"));
    expect(await screen.findByTestId("mic-test-listening")).toHaveTextContent("Say something… (3 seconds)");
    await act(() => core.event({ type: "voice_level", level: 0.1 }));
    await waitFor(() => expect(screen.getByRole("meter", { name: "Microphone level" })).toHaveAttribute("aria-valuenow", "0.1"));
    await act(() => core.event({ type: "voice_transcribing" }));
    expect(await screen.findByTestId("mic-test-transcribing")).toHaveTextContent("Writing down what it heard…");
    expect(screen.getByTestId("voice-test-microphone")).toBeDisabled();
    await act(async () => heard("probando, uno, dos"));
    expect(await screen.findByTestId("mic-test-result")).toHaveTextContent("Heard: “probando, uno, dos”");
    expect(screen.getByTestId("mic-test-result").closest(".setting-row")).toContainElement(screen.getByTestId("voice-test-microphone"));
    await user.click(screen.getByTestId("voice-test-speaking"));
    expect(core.invoked("voice_test_speaking")).toHaveLength(1);
  });
});

describe("this chat's spoken replies", () => {
  it("the header's speaker says every reply of this chat aloud, and lets go back to Settings' rule", async () => {
    const core = new FakeCore();
    let here = false;
    core.handlers.speaks_here = () => here;
    core.handlers.set_speaks_here = (args) => (here = (args as { on: boolean }).on);
    renderApp();
    const user = userEvent.setup();
    const speaker = await screen.findByTestId("speak-here");
    await waitFor(() => expect(speaker).toHaveAttribute("aria-pressed", "false"));
    expect(speaker).toHaveAccessibleName("Say every reply in this chat aloud");
    await user.click(speaker);
    expect(core.invoked("set_speaks_here")[0].args).toEqual({ on: true });
    await waitFor(() => expect(speaker).toHaveAttribute("aria-pressed", "true"));
    await user.click(speaker);
    expect(core.invoked("set_speaks_here")[1].args).toEqual({ on: false });
    await waitFor(() => expect(speaker).toHaveAttribute("aria-pressed", "false"));
  });
});
