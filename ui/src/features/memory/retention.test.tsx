import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

const report = { conversations_expired: 3, conversations_removed: 1, vectors_removed: 42, corrections_removed: 0, conversations_over_size: 0, used_bytes: 12_300_000, still_over_size: false };

async function openKeeping() {
  renderApp();
  const user = userEvent.setup();
  await user.click(screen.getByTestId("nav-settings"));
  const keep = (await screen.findByTestId("keep-days")) as HTMLSelectElement;
  await waitFor(() => expect(keep).not.toBeDisabled());
  return { user, keep };
}

describe("Settings → Your data → Keeping", () => {
  it("keeps everything by default, saves a retention the user picks, and tidies now with a report", async () => {
    const core = new FakeCore();
    core.handlers.tidy_now = () => report;
    const { user, keep } = await openKeeping();
    expect(keep.selectedOptions[0]).toHaveTextContent("Forever");
    await user.selectOptions(keep, "365");
    expect(core.invoked("set_retention")[0].args).toEqual({ retention: { keep_days: 365, max_size_mb: null, close_idle_hours: null, tidy_often: true } });
    expect(await screen.findByTestId("retention-note")).toHaveTextContent("nothing said for 365 days will be deleted at the next tidy");
    await user.selectOptions(keep, "");
    expect(core.invoked("set_retention")[1].args).toEqual({ retention: { keep_days: null, max_size_mb: null, close_idle_hours: null, tidy_often: true } });
    await user.click(screen.getByTestId("tidy-now"));
    expect(await screen.findByText(/3 old conversations deleted, 0 removed to keep under the size limit, 1 deleted ones removed for good, 42 search vectors.*uses 12.3 MB/)).toBeInTheDocument();
  });

  it("offers the seeds' purge: a size limit, idle chats closed, and the tidy every 30 minutes, each saved whole", async () => {
    const core = new FakeCore();
    core.handlers.tidy_now = () => ({ ...report, conversations_expired: 0, conversations_removed: 0, vectors_removed: 0, used_bytes: 61_000_000, still_over_size: true });
    const { user } = await openKeeping();
    const size = screen.getByTestId("max-size") as HTMLSelectElement;
    const idle = screen.getByTestId("close-idle") as HTMLSelectElement;
    // Off by default, the tidy often on; the choices are the core's.
    expect(size.selectedOptions[0]).toHaveTextContent("No limit");
    expect([...size.options].map((o) => o.textContent)).toEqual(["No limit", "1 GB", "500 MB", "250 MB", "100 MB", "50 MB"]);
    expect(idle.selectedOptions[0]).toHaveTextContent("Never");
    expect(screen.getByTestId("tidy-often")).toBeChecked();

    await user.selectOptions(size, "50");
    expect(core.invoked("set_retention").at(-1)!.args).toEqual({ retention: { keep_days: null, max_size_mb: 50, close_idle_hours: null, tidy_often: true } });
    expect(await screen.findByTestId("retention-note")).toHaveTextContent("Past 50 MB, the oldest chats are removed for good at the next tidy (never a pinned one");
    await user.selectOptions(idle, "2");
    expect(core.invoked("set_retention").at(-1)!.args).toEqual({ retention: { keep_days: null, max_size_mb: 50, close_idle_hours: 2, tidy_often: true } });
    expect(screen.getByTestId("retention-note")).toHaveTextContent("After 2 hours with nothing said, the chat is summed up in a checkpoint");
    await user.click(screen.getByTestId("tidy-often"));
    expect(core.invoked("set_retention").at(-1)!.args).toEqual({ retention: { keep_days: null, max_size_mb: 50, close_idle_hours: 2, tidy_often: false } });
    expect(screen.getByTestId("retention-note")).toHaveTextContent("once a day");

    // A limit what is left cannot meet is said, with the size.
    await user.click(screen.getByTestId("tidy-now"));
    expect(await screen.findByText(/Nothing to tidy.*uses 61.0 MB\. What is left is pinned, current or not a chat/)).toBeInTheDocument();
  });

  it("keeps a first choice when a second comes before the first is saved", async () => {
    const core = new FakeCore();
    core.handlers.set_retention = () => new Promise((resolve) => setTimeout(() => resolve(null), 200));
    const { user } = await openKeeping();
    await user.selectOptions(screen.getByTestId("max-size"), "50");
    await user.selectOptions(screen.getByTestId("close-idle"), "2");
    expect(core.invoked("set_retention").at(-1)!.args).toEqual({ retention: { keep_days: null, max_size_mb: 50, close_idle_hours: 2, tidy_often: true } });
    expect((screen.getByTestId("max-size") as HTMLSelectElement).selectedOptions[0]).toHaveTextContent("50 MB");
  });

  it("shows a limit set by hand in the file as it is, and says a refusal", async () => {
    const core = new FakeCore();
    core.retention = { ...core.retention, settings: { ...core.retention.settings, max_size_mb: 75 }, max_size_mb: [1000, 500, 250, 100, 75, 50] };
    core.handlers.set_retention = () => {
      throw { kind: "invalid", message: "retention.max_size_mb must be from 10 to 100000" };
    };
    const { user } = await openKeeping();
    const size = screen.getByTestId("max-size") as HTMLSelectElement;
    expect(size.selectedOptions[0]).toHaveTextContent("75 MB");
    await user.selectOptions(size, "50");
    const said = await screen.findByTestId("retention-note");
    await waitFor(() => expect(said).toHaveTextContent("retention.max_size_mb must be from 10"));
    expect(said).toHaveAttribute("role", "alert");
    expect(size.selectedOptions[0]).toHaveTextContent("75 MB");
  });
});
