import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { BudgetLimits, BudgetView, Spend, UsageDay, UsageHistory, UsageReport } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

const spend = (cost_usd: number, calls = 1) => ({ cost_usd, calls, input_tokens: 1000 * calls, output_tokens: 100 * calls, unpriced_calls: 0 });

function history(): UsageHistory {
  const none: Record<string, Spend> = {};
  const days = Array.from({ length: 30 }, (_, i): UsageDay => {
    const day = `2026-11-${String(i + 1).padStart(2, "0")}`;
    const busy = i >= 27;
    return {
      day,
      total: busy ? spend(0.5, 2) : spend(0, 0),
      by_model: busy ? { "gpt-4o-mini": spend(0.3), "claude-haiku": spend(0.2) } : none,
      by_purpose: busy ? { chat: spend(0.4), summarize: spend(0.1) } : none,
    };
  });
  const span = { total: spend(1.5, 6), by_model: { "gpt-4o-mini": spend(0.9, 3), "claude-haiku": spend(0.6, 3) }, by_purpose: { chat: spend(1.2, 4), summarize: spend(0.3, 2) } };
  return { days, last_7_days: span, last_30_days: span, month_to_date_usd: 1.5, month_projection_usd: 1.5, currency: "EUR", usd_rate: 0.5 };
}

function budget(allowance_usd = 0): BudgetView {
  return {
    limits: [
      { scope: "all", period: "day", usd: 1, spent_usd: 0.9, reserved_usd: 0.05, allowed_usd: 1 + allowance_usd },
      { scope: "provider", provider: "openai", period: "month", usd: 20, spent_usd: 3, reserved_usd: 0, allowed_usd: 20 + allowance_usd },
    ],
    allowance_usd,
    warn_percent: 80,
    currency: "EUR",
    usd_rate: 0.5,
    allow_unpriced: false,
  };
}

const totals = { calls: 6, input_tokens: 6000, output_tokens: 600, cached_tokens: 0, cost_usd: 1.5, unpriced_calls: 0, by_model: [], by_purpose: [], turns: { turns: 0, truncated: 0, claimed_without_acting: 0, reinforced: 0, plans_finished: 0, plans_abandoned: 0 } };

describe("budget and spending", () => {
  it("shows each limit in the user's currency, a chart by model or purpose, the projection, and allows more today", async () => {
    const core = new FakeCore();
    core.handlers.usage_report = (): UsageReport => ({ today: totals, all_time: totals });
    core.handlers.usage_history = () => history();
    core.handlers.budget_view = () => budget();
    let allowed: unknown = null;
    core.handlers.allow_more_today = (args) => {
      allowed = args;
      return budget(4);
    };
    renderApp();
    const user = userEvent.setup();
    await act(() => user.click(screen.getByTestId("nav-usage")));
    const limits = await screen.findAllByTestId("budget-limit");
    expect(limits[0]).toHaveTextContent("Today: all calls");
    expect(limits[0]).toHaveTextContent("0.45 EUR of 0.50 EUR");
    expect(limits[0]).toHaveTextContent("0.03 EUR reserved");
    expect(within(limits[0]).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "95");
    expect(limits[1]).toHaveTextContent("This month: provider openai");
    const chart = screen.getByTestId("usage-chart");
    expect(chart.querySelectorAll("rect")).toHaveLength(6);
    expect(screen.getByText("gpt-4o-mini")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "By purpose" }));
    expect(screen.getByText("Replies")).toBeInTheDocument();
    expect(screen.getByTestId("usage-projection")).toHaveTextContent("This month so far: 0.75 EUR");
    await user.type(screen.getByTestId("budget-amount"), "2");
    await user.click(screen.getByRole("button", { name: "Allow" }));
    expect(allowed).toEqual({ amount: 2 });
    expect(await screen.findByText("Allowed today on top of every limit: 2.00 EUR")).toBeInTheDocument();
  });

  it("says a limit reached in the chat once, and at 100% one click allows more", async () => {
    const core = new FakeCore();
    let allowed: unknown = null;
    core.handlers.allow_more_today = (args) => {
      allowed = args;
      return budget(1);
    };
    renderApp();
    const reached = { scope: "all" as const, period: "day" as const, usd: 1, spent_usd: 1.02, reserved_usd: 0, allowed_usd: 1, percent: 100 };
    await core.event({ type: "budget_reached", reached, currency: "EUR", usd_rate: 0.5, more_usd: 0.25, said: "Today's budget is spent (0.51 EUR of 0.50 EUR)" });
    const banner = await screen.findByTestId("budget-banner");
    expect(banner).toHaveTextContent("Today's budget is spent");
    const user = userEvent.setup();
    await user.click(within(banner).getByTestId("budget-allow"));
    expect(allowed).toEqual({ amount: 0.125 });
    expect(screen.queryByTestId("budget-banner")).toBeNull();
  });

  it("says plainly when no budget is set", async () => {
    const core = new FakeCore();
    core.handlers.usage_report = (): UsageReport => ({ today: totals, all_time: totals });
    core.handlers.usage_history = () => history();
    core.handlers.budget_view = () => ({ ...budget(), limits: [] });
    core.handlers.budget_limits = () => limits();
    renderApp();
    const user = userEvent.setup();
    await act(() => user.click(screen.getByTestId("nav-usage")));
    expect(await screen.findByText(/No budget is set/)).toBeInTheDocument();
    // Its button opens Settings on the budget's form.
    await user.click(screen.getByTestId("budget-set-limits"));
    expect(await screen.findByTestId("budget-form")).toBeVisible();
  });

  it("sets the limits in Settings in the user's currency and says what is wrong", async () => {
    const core = new FakeCore();
    let saved: BudgetLimits | null = null;
    core.handlers.budget_limits = () => saved ?? limits();
    core.handlers.save_budget_limits = (args) => {
      saved = (args as { form: BudgetLimits }).form;
      return budget();
    };
    sessionStorage.setItem("sidecar.settings.section", "budget");
    renderApp();
    const user = userEvent.setup();
    await act(() => user.click(screen.getByTestId("nav-settings")));
    const form = await screen.findByTestId("budget-form");
    expect(within(form).getByTestId("budget-daily")).toHaveValue("1.5");
    expect(within(form).getByText("openai, a month")).toBeInTheDocument();
    expect(within(form).getAllByText("EUR").length).toBeGreaterThan(3);
    await user.clear(screen.getByTestId("budget-daily"));
    await user.type(screen.getByTestId("budget-monthly"), "abc");
    await user.click(screen.getByTestId("budget-save"));
    expect(await screen.findByTestId("budget-error")).toHaveTextContent("All calls, a month: write a number");
    expect(saved).toBeNull();
    await user.clear(screen.getByTestId("budget-monthly"));
    await user.type(screen.getByTestId("budget-monthly"), "20,5");
    await user.type(screen.getByTestId("budget-openai.daily"), "1");
    await user.click(screen.getByTestId("budget-save"));
    expect(await screen.findByTestId("budget-saved")).toHaveTextContent("The next call keeps to these limits");
    expect(saved).toEqual({ ...limits(), daily: null, monthly: 20.5, providers: [{ id: "openai", daily: 1, monthly: 10 }] });
    // The core's refusal is shown as it says it.
    core.handlers.save_budget_limits = () => {
      throw { kind: "invalid_input", message: "a limit must be an amount of zero or more, in EUR", retryable: false };
    };
    await user.click(screen.getByTestId("budget-save"));
    expect(await screen.findByTestId("budget-error")).toHaveTextContent("zero or more, in EUR");
  });

  it("shows the budget's form in Spanish", async () => {
    const core = new FakeCore();
    core.handlers.budget_limits = () => limits();
    sessionStorage.setItem("sidecar.settings.section", "budget");
    renderApp("es");
    await act(() => userEvent.setup().click(screen.getByTestId("nav-settings")));
    const form = await screen.findByTestId("budget-form");
    expect(within(form).getByText("Todas las llamadas, al día")).toBeInTheDocument();
    expect(within(form).getByText("EUR por un dólar estadounidense")).toBeInTheDocument();
    expect(within(form).getByRole("button", { name: "Guardar límites" })).toBeInTheDocument();
  });
});

function limits(): BudgetLimits {
  return { daily: 1.5, monthly: null, background_daily: null, currency: "EUR", usd_rate: 0.5, allow_unpriced: false, providers: [{ id: "openai", daily: null, monthly: 10 }] };
}
