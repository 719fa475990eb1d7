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
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    const row = await screen.findByTestId("backup-row");
    await user.click(within(row).getByTestId("restore-backup"));
    expect(within(row).getByTestId("restore-confirm")).toHaveTextContent("Restore the backup of 2026-11-23? Sidecar restarts to do it.");
    expect(core.invoked("restore_at_restart")).toHaveLength(0);
    await user.click(within(row).getByTestId("restore-yes"));
    expect(core.invoked("restore_at_restart")[0].args).toEqual({ path: "/home/ana/.local/share/sidecar/backups/sidecar-2026-11-23.tar.gz" });
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
