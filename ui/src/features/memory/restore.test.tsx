import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

describe("restore from a backup in Settings", () => {
  it("asks once, then restores at a restart", async () => {
    const core = new FakeCore();
    core.backups = [["2026-11-23", "/home/ana/.local/share/sidecar/backups/sidecar-2026-11-23.tar.gz"]];
    core.handlers.restore_at_restart = () => null;
    core.handlers.backup_is_sealed = () => false;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    const row = await screen.findByTestId("backup-row");
    await user.click(within(row).getByTestId("restore-backup"));
    expect(await within(row).findByTestId("restore-confirm")).toHaveTextContent("Restore the backup of 2026-11-23? Sidecar restarts to do it.");
    expect(core.invoked("restore_at_restart")).toHaveLength(0);
    await user.click(within(row).getByTestId("restore-yes"));
    expect(core.invoked("restore_at_restart")[0].args).toEqual({ path: "/home/ana/.local/share/sidecar/backups/sidecar-2026-11-23.tar.gz", passphrase: null });
  });

  it("asks an encrypted backup's passphrase before restoring it", async () => {
    const core = new FakeCore();
    core.backups = [["2026-11-23", "/backups/daily-2026-11-23.sidecar-backup"]];
    core.handlers.backup_is_sealed = () => true;
    core.handlers.restore_at_restart = () => {
      throw { message: "/backups/daily-2026-11-23.sidecar-backup is not a usable Sidecar backup: the passphrase does not open it", retryable: false };
    };
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    const row = await screen.findByTestId("backup-row");
    await user.click(within(row).getByTestId("restore-backup"));
    const field = await within(row).findByTestId("restore-passphrase");
    expect(within(row).getByTestId("restore-yes")).toBeDisabled();
    await user.type(field, "la maceta azul");
    await user.click(within(row).getByTestId("restore-yes"));
    expect(core.invoked("restore_at_restart")[0].args).toEqual({ path: "/backups/daily-2026-11-23.sidecar-backup", passphrase: "la maceta azul" });
    expect(await screen.findByTestId("data-note")).toHaveTextContent("the passphrase does not open it");
  });

  it("sets the passphrase backups are encrypted with, says where it is kept, and can stop", async () => {
    const core = new FakeCore();
    let sealed = false;
    core.handlers.backup_seal = () => ({ sealed, storage: sealed ? { kind: "session", reason: "no keychain" } : null, min_chars: 10 });
    core.handlers.seal_backups = (args) => {
      const { passphrase } = args as { passphrase: string };
      if (passphrase.length > 0 && passphrase.length < 10) throw { message: "a passphrase needs at least 10 characters", retryable: false };
      sealed = passphrase.length > 0;
      return core.handlers.backup_seal({});
    };
    renderApp("es");
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    const section = await screen.findByTestId("backup-seal");
    expect(within(section).getByTestId("seal-state")).toHaveTextContent("Las copias no están cifradas.");
    await user.type(within(section).getByTestId("seal-passphrase"), "corta");
    await user.click(within(section).getByTestId("seal-save"));
    expect(await within(section).findByTestId("seal-note")).toHaveTextContent("at least 10 characters");
    await user.clear(within(section).getByTestId("seal-passphrase"));
    await user.type(within(section).getByTestId("seal-passphrase"), "la maceta turquesa");
    await user.click(within(section).getByTestId("seal-save"));
    await waitFor(() => expect(within(section).getByTestId("seal-state")).toHaveTextContent("no se encontró el llavero"));
    expect(within(section).getByTestId("seal-passphrase")).toHaveValue("");
    await user.click(within(section).getByTestId("seal-remove"));
    await waitFor(() => expect(within(section).getByTestId("seal-state")).toHaveTextContent("Las copias no están cifradas."));
  });

  it("says once after the restart how it went", async () => {
    const core = new FakeCore();
    core.handlers.restore_note = () => ({ outcome: "restored", files: 4, created_at: "2026-11-23T09:00:00Z", aside: "/home/ana/.local/share/sidecar/before-restore-20261124" });
    renderApp();
    expect(await screen.findByTestId("restore-note")).toHaveTextContent("Restored the backup of 2026-11-23T09:00:00Z (4 files). What you had before is in /home/ana/.local/share/sidecar/before-restore-20261124.");
    await userEvent.setup().click(within(screen.getByTestId("restore-note")).getByRole("button"));
    await waitFor(() => expect(screen.queryByTestId("restore-note")).toBeNull());
  });

  it("says why when the backup could not be restored", async () => {
    const core = new FakeCore();
    core.handlers.restore_note = () => ({ outcome: "refused", file: "/tmp/x.tar.gz", why: "its database comes from a newer Sidecar" });
    renderApp("es");
    expect(await screen.findByTestId("restore-note")).toHaveTextContent("La copia no se restauró: its database comes from a newer Sidecar. No cambió nada.");
  });
});
