import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";

describe("profile editors", () => {
  it("keep unsaved edits across tabs, say so, and ask before Reload discards them", async () => {
    const core = new FakeCore();
    core.handlers.read_profile = (args) =>
      (args as { file: string }).file === "user" ? { text: "# Profile\n", version: "v1" } : { text: "# Sidecar\n", version: "s1" };
    core.handlers.save_profile = () => "v2";
    renderApp();
    const user = userEvent.setup();
    const openProfile = async () => {
      await user.click(screen.getByTestId("nav-memory"));
      await user.click(await screen.findByTestId("memory-tab-profile"));
      return screen.findByTestId("profile-user");
    };
    let editor = await openProfile();
    await waitFor(() => expect(editor).toHaveValue("# Profile\n"));
    expect(screen.queryByTestId("profile-user-unsaved")).toBeNull();
    await user.type(editor, "- Lives in Madrid");
    expect(screen.getByTestId("profile-user-unsaved")).toHaveTextContent("Unsaved changes");

    // Away to the chat and back: the edit is still there, still unsaved.
    await user.click(screen.getByTestId("nav-chat"));
    editor = await openProfile();
    await waitFor(() => expect(editor).toHaveValue("# Profile\n- Lives in Madrid"));
    expect(screen.getByTestId("profile-user-unsaved")).toBeInTheDocument();

    // Reload asks first; "Keep editing" keeps it, "Discard" loads the file.
    await user.click(screen.getByTestId("profile-user-reload"));
    expect(screen.getByTestId("profile-user-discard")).toHaveTextContent("Discard your changes");
    await user.click(screen.getByText("Keep editing"));
    expect(editor).toHaveValue("# Profile\n- Lives in Madrid");
    await user.click(screen.getByTestId("profile-user-reload"));
    await user.click(screen.getByText("Discard"));
    await waitFor(() => expect(editor).toHaveValue("# Profile\n"));
    expect(screen.queryByTestId("profile-user-unsaved")).toBeNull();

    // A draft is saved against the version it was made on.
    await user.type(editor, "!");
    await user.click(screen.getByTestId("nav-chat"));
    editor = await openProfile();
    await waitFor(() => expect(editor).toHaveValue("# Profile\n!"));
    await user.click(screen.getByTestId("profile-user-save"));
    expect(core.invoked("save_profile")[0].args).toEqual({ file: "user", text: "# Profile\n!", version: "v1" });
    await waitFor(() => expect(screen.queryByTestId("profile-user-unsaved")).toBeNull());
  });
});
