import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { MailView } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

const connected = (who: string[] = []): MailView => ({
  account: { address: "ana@fastmail.com", server: { host: "imap.fastmail.com", port: 993, security: "tls", hint: null }, username: "ana@fastmail.com", first_days: 30 },
  folders: [
    { id: 1, name: "INBOX", read: true, mails: 42, synced_at: "2026-12-03T09:00:00Z", problem: null },
    { id: 2, name: "Archive", read: false, mails: 0, synced_at: null, problem: null },
  ],
  who_matters: who,
});

async function openMail(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId("nav-settings"));
  await user.click(await screen.findByTestId("settings-nav-mail"));
}

describe("Settings → Mail", () => {
  it("fills the provider's server from the address, refuses a wrong password with what to do, then shows the folders", async () => {
    const core = new FakeCore();
    core.handlers.mail_view = () => ({ account: null, folders: [], who_matters: [] });
    core.handlers.time_zone = () => "Europe/Madrid";
    core.handlers.mail_preset = () => ({ host: "imap.fastmail.com", port: 993, security: "tls", hint: "an app password (Settings → Privacy & Security → App passwords)" });
    let tries = 0;
    core.handlers.connect_mail = () => {
      tries += 1;
      if (tries === 1) throw { message: "the mail server refused the user name or password; check them, or make an app password (Gmail, Outlook, iCloud and Fastmail ask for one)", retryable: false };
      return connected();
    };
    renderApp();
    const user = userEvent.setup();
    await openMail(user);
    expect(await screen.findByTestId("mail-none")).toHaveTextContent("No mailbox connected.");
    await user.type(screen.getByTestId("mail-address"), "ana@fastmail.com");
    await user.tab();
    await waitFor(() => expect(screen.getByTestId("mail-host")).toHaveValue("imap.fastmail.com"));
    expect(screen.getByTestId("mail-hint")).toHaveTextContent("This provider asks for an app password");
    expect(screen.getByTestId("mail-user")).toHaveValue("ana@fastmail.com");
    await user.type(screen.getByTestId("mail-password"), "wrong");
    await user.click(screen.getByTestId("mail-connect"));
    expect(await screen.findByTestId("mail-error")).toHaveTextContent("make an app password");
    expect(screen.getByTestId("mail-password")).toHaveValue("");
    await user.type(screen.getByTestId("mail-password"), "app-secret");
    await user.click(screen.getByTestId("mail-connect"));
    expect(core.invoked("connect_mail")[1].args).toEqual({ address: "ana@fastmail.com", host: "imap.fastmail.com", port: 993, security: "tls", username: "ana@fastmail.com", password: "app-secret" });
    expect(await screen.findByTestId("mail-account")).toHaveTextContent("Connected to ana@fastmail.com on imap.fastmail.com, read only.");
    expect(screen.getAllByTestId("mail-folder").map((f) => f.textContent)).toEqual([expect.stringContaining("INBOX · 42 mails"), "Archive"]);
    expect(screen.getByTestId("mail-status")).toHaveTextContent(/^Synced /);
  });

  it("in Spanish: chooses folders, keeps who matters, says a server that is down, and disconnects after asking", async () => {
    const core = new FakeCore();
    const down = "no se pudo llegar al servidor de correo: revisa su nombre y su puerto, que esté en marcha y que este ordenador tenga conexión; se usa la última copia hasta que responda";
    let view = connected();
    core.handlers.mail_view = () => view;
    core.handlers.time_zone = () => "Europe/Madrid";
    core.handlers.choose_mail_folders = (args) => {
      const { read } = args as { read: string[] };
      return (view = { ...view, folders: view.folders.map((f) => ({ ...f, read: read.includes(f.name) })) });
    };
    core.handlers.set_who_matters = () => (view = { ...view, who_matters: ["ana@example.org", "work.com"] });
    core.handlers.sync_mail = () => {
      view = { ...view, folders: view.folders.map((f) => ({ ...f, problem: f.read ? down : null })) };
      throw { message: down, retryable: true };
    };
    core.handlers.disconnect_mail = () => ({ account: null, folders: [], who_matters: [] });
    core.handlers.mail_suggestions = () => (view.who_matters.includes("marta@example.net") ? [] : [{ address: "marta@example.net", name: "Marta Gil", mails: 4 }]);
    renderApp("es");
    const user = userEvent.setup();
    await openMail(user);
    await user.click(await screen.findByTestId("mail-read-Archive"));
    expect(core.invoked("choose_mail_folders")[0].args).toEqual({ read: ["INBOX", "Archive"] });
    await user.type(screen.getByTestId("mail-who"), "ana@example.org\n@Work.com\nnada");
    await user.click(screen.getByTestId("mail-who-save"));
    expect(core.invoked("set_who_matters")[0].args).toEqual({ people: ["ana@example.org", "@Work.com", "nada"] });
    await waitFor(() => expect(screen.getByTestId("mail-who")).toHaveValue("ana@example.org\nwork.com"));
    expect(screen.getByText("2 remitentes o dominios guardados.")).toBeInTheDocument();
    // Someone the user's memory names, added with one press.
    core.handlers.set_who_matters = (args) => (view = { ...view, who_matters: (args as { people: string[] }).people });
    await user.click(await screen.findByRole("button", { name: "Añadir a Marta Gil" }));
    expect(core.invoked("set_who_matters")[1].args).toEqual({ people: ["ana@example.org", "work.com", "marta@example.net"] });
    await waitFor(() => expect(screen.queryByTestId("mail-suggested")).toBeNull());
    await user.click(screen.getByTestId("mail-sync"));
    expect(await screen.findByTestId("mail-note")).toHaveTextContent("se usa la última copia");
    await waitFor(() => expect(screen.getAllByTestId("mail-status")[0]).toHaveTextContent(/^Sin actualizar; la última copia es de /));
    await user.click(screen.getByTestId("mail-disconnect"));
    expect(core.invoked("disconnect_mail")).toHaveLength(0);
    expect(screen.getByText(/borra todos los correos que guardó/)).toBeInTheDocument();
    await user.click(screen.getByTestId("mail-disconnect-yes"));
    expect(await screen.findByTestId("mail-none")).toHaveTextContent("No hay ningún buzón conectado.");
  });
});
