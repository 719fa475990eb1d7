import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

describe("the built-in demo model", () => {
  it("is named as a demo in the header and the empty chat says what it cannot do", async () => {
    const core = new FakeCore();
    core.handlers.model_status = () => ({ state: "ready", provider: "local", model: "SmolLM2-135M-Instruct", demo: true });
    renderApp();
    await waitFor(() => expect(screen.getByTestId("model-badge")).toHaveTextContent("Demo model · SmolLM2-135M-Instruct"));
    expect(screen.getByTestId("model-badge")).toHaveAttribute("title", expect.stringContaining("cannot use tools"));
    expect(await screen.findByTestId("empty-body")).toHaveTextContent(/demo model.*cannot use tools.*may make things up/);
  });

  it("a real model is just ready", async () => {
    const core = new FakeCore();
    core.handlers.model_status = () => ({ state: "ready", provider: "openai", model: "gpt-4o-mini", demo: false });
    renderApp();
    await waitFor(() => expect(screen.getByTestId("model-badge")).toHaveTextContent("Ready · gpt-4o-mini"));
    expect(await screen.findByTestId("empty-body")).not.toHaveTextContent("demo");
    expect(screen.getByTestId("empty-body")).not.toHaveTextContent("until you configure a provider");
  });

  it("the empty chat names the shortcut as it is set now", async () => {
    const core = new FakeCore();
    core.preferences = { ...core.preferences, hotkey: "Alt+Space" };
    renderApp();
    expect(await screen.findByTestId("shortcut-hint")).toHaveTextContent("Alt+Space shows or hides this window");
  });

  it("a provider that is down while the demo answers is said in words on the header, in both languages", async () => {
    const core = new FakeCore();
    core.handlers.model_status = () => ({ state: "standing_in", down: "ollama", reason: "cannot reach http://127.0.0.1:11434", model: "SmolLM2-135M-Instruct", demo: true });
    renderApp();
    const badge = screen.getByTestId("model-badge");
    await waitFor(() => expect(badge).toHaveTextContent("ollama is not answering · the demo model answers meanwhile"));
    expect(badge).toHaveClass("standing_in");
    expect(badge).not.toHaveClass("unavailable");
    expect(badge).toHaveAttribute("title", expect.stringContaining("cannot reach http://127.0.0.1:11434"));
    expect(await screen.findByTestId("empty-body")).toHaveTextContent(/demo model/);
  });

  it("says the same in Spanish", async () => {
    const core = new FakeCore();
    core.handlers.model_status = () => ({ state: "standing_in", down: "ollama", reason: "¿está en marcha Ollama?", model: "SmolLM2-135M-Instruct", demo: true });
    renderApp("es");
    await waitFor(() => expect(screen.getByTestId("model-badge")).toHaveTextContent("ollama no responde · responde el modelo de demostración"));
    // A reason that ends a sentence is not ended twice ("…?.").
    expect(screen.getByTestId("model-badge")).toHaveAttribute("title", expect.stringContaining("ollama: ¿está en marcha Ollama? Responde el modelo sin conexión"));
  });
});
