import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

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
      await user.click(await screen.findByTestId("profile-view-files"));
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

  it("a form over user.md and SOUL.md: saves the fields, says when a file changed, and the files are one click away", async () => {
    const core = new FakeCore();
    const empty = { name: "", address_as: "", about: "", answer_style: "" };
    let refuse = false;
    core.handlers.profile_fields = () => ({ fields: { ...empty, name: "Ana" }, user_version: "u1", soul_version: "s1" });
    core.handlers.save_profile_fields = (args) => {
      if (refuse) return Promise.reject({ message: "user.md cambió en el disco desde que se abrió; vuelve a cargarlo y repite el cambio", retryable: false });
      const { fields } = args as { fields: typeof empty };
      return { fields, user_version: "u2", soul_version: "s2" };
    };
    core.handlers.read_profile = () => ({ text: "# Perfil\n", version: "u2" });
    renderApp("es");
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(await screen.findByTestId("memory-tab-profile"));
    await user.click(screen.getByTestId("profile-view-form"));
    const name = await screen.findByTestId("profile-name");
    expect(name).toHaveValue("Ana");
    expect(screen.getByText("Cómo debe responder Sidecar")).toBeInTheDocument();
    expect(screen.getByTestId("profile-form-save")).toBeDisabled();
    await user.type(screen.getByTestId("profile-address"), "Anita");
    await user.type(screen.getByTestId("profile-style"), "Breve.");
    expect(screen.getByTestId("profile-form-unsaved")).toBeInTheDocument();
    await user.click(screen.getByTestId("profile-form-save"));
    expect(core.invoked("save_profile_fields")[0].args).toEqual({
      fields: { name: "Ana", address_as: "Anita", about: "", answer_style: "Breve." },
      userVersion: "u1",
      soulVersion: "s1",
    });
    expect(await screen.findByTestId("profile-form-message")).toHaveTextContent("Guardado. La próxima respuesta lo usa.");
    expect(screen.queryByTestId("profile-form-unsaved")).toBeNull();
    // A file edited meanwhile: the core's refusal is shown, nothing is lost from the form.
    refuse = true;
    await user.type(screen.getByTestId("profile-about"), "Enfermera");
    await user.click(screen.getByTestId("profile-form-save"));
    expect(await screen.findByRole("alert")).toHaveTextContent("cambió en el disco");
    expect(screen.getByTestId("profile-about")).toHaveValue("Enfermera");
    // The raw files, one click away.
    await user.click(screen.getByTestId("profile-view-files"));
    expect(await screen.findByTestId("profile-user")).toHaveValue("# Perfil\n");
  });
});
