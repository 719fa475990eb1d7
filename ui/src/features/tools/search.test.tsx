import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";

async function openSearch(lang: "en" | "es" = "en") {
  const user = userEvent.setup();
  renderApp(lang);
  await openSettingsSection(user, "search");
  return { user, section: await screen.findByTestId("search-settings") };
}

describe("Settings → Web search", () => {
  it("needs no setup, and tries a search on DuckDuckGo", async () => {
    const core = new FakeCore();
    core.handlers.try_web_search = () => [{ title: "Tauri 2.0", url: "https://v2.tauri.app/", snippet: "…" }];
    const { user, section } = await openSearch();
    expect(within(section).getByTestId("search-duckduckgo")).toBeChecked();
    expect(within(section).getByText("No key, no setup.")).toBeInTheDocument();
    expect(within(section).getByTestId("search-save")).toBeDisabled();
    await user.click(within(section).getByTestId("search-try"));
    expect(await within(section).findByText("1 result:")).toBeInTheDocument();
    expect(within(section).getByText("https://v2.tauri.app/")).toBeInTheDocument();
  });

  it("switches to SearXNG with its address, and says the core's refusal", async () => {
    const core = new FakeCore();
    core.handlers.save_web_search = (args) => {
      const { input } = args as { input: { backend: string; url: string | null } };
      if (!input.url?.startsWith("http")) return Promise.reject({ message: '"search.lan" is not an address; write it whole, like https://search.example.org', retryable: false });
      return { backend: "searxng", url: input.url, has_key: false };
    };
    const { user, section } = await openSearch();
    await user.click(within(section).getByTestId("search-searxng"));
    await user.type(within(section).getByTestId("search-url"), "search.lan");
    await user.click(within(section).getByTestId("search-save"));
    expect(await within(section).findByRole("alert")).toHaveTextContent("is not an address");

    await user.clear(within(section).getByTestId("search-url"));
    await user.type(within(section).getByTestId("search-url"), "https://search.lan");
    expect(within(section).getByTestId("search-try"), "try what is saved").toBeDisabled();
    await user.click(within(section).getByTestId("search-save"));
    expect(await within(section).findByText("Saved. Web search now asks this service.")).toBeInTheDocument();
    expect(core.invoked("save_web_search").at(-1)!.args).toEqual({ input: { backend: "searxng", url: "https://search.lan", api_key: null } });
    await waitFor(() => expect(within(section).getByTestId("search-try")).toBeEnabled());
  });

  it("keeps a Brave key out of sight, in Spanish", async () => {
    const core = new FakeCore();
    core.search = { backend: "brave", url: null, has_key: true };
    const { section } = await openSearch("es");
    expect(within(section).getByText("Búsqueda web")).toBeInTheDocument();
    expect(within(section).getByTestId("search-key")).toHaveValue("");
    expect(within(section).getByText("Hay una clave guardada; pega otra para cambiarla.")).toBeInTheDocument();
  });
});
