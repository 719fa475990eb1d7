import { useEffect, useState } from "react";
import { api, toCommandError, type BudgetLimits } from "../../api";
import { useStrings } from "../../i18n";

/** A form field's text for an amount; empty is no limit. */
const text = (amount: number | null) => (amount === null ? "" : String(amount));

/** Settings → Budget: the limits in the user's currency (the core converts). */
export function BudgetSettings() {
  const t = useStrings();
  const [form, setForm] = useState<BudgetLimits | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const load = (limits: BudgetLimits) => {
    setForm(limits);
    const typed: Record<string, string> = { daily: text(limits.daily), monthly: text(limits.monthly), background: text(limits.background_daily), rate: String(limits.usd_rate) };
    limits.providers.forEach((p) => {
      typed[`${p.id}.daily`] = text(p.daily);
      typed[`${p.id}.monthly`] = text(p.monthly);
    });
    setFields(typed);
  };
  useEffect(() => {
    api.budgetLimits().then(load).catch((e) => setError(toCommandError(e).message));
  }, []);
  if (!form) return error ? <div className="form-error" role="alert">{error}</div> : null;

  const set = (key: string, value: string) => {
    setSaved(false);
    setFields((f) => ({ ...f, [key]: value }));
  };
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const problems: string[] = [];
    const amount = (key: string, label: string): number | null => {
      const typed = (fields[key] ?? "").trim().replace(",", ".");
      if (!typed) return null;
      const n = Number(typed);
      if (Number.isNaN(n)) problems.push(t.budgetNotANumber(label));
      return n;
    };
    const next: BudgetLimits = {
      ...form,
      daily: amount("daily", t.budgetDaily),
      monthly: amount("monthly", t.budgetMonthly),
      background_daily: amount("background", t.budgetBackground),
      usd_rate: amount("rate", t.budgetRate(form.currency)) ?? 0,
      providers: form.providers.map((p) => ({ id: p.id, daily: amount(`${p.id}.daily`, t.budgetProviderDaily(p.id)), monthly: amount(`${p.id}.monthly`, t.budgetProviderMonthly(p.id)) })),
    };
    if (problems.length > 0) return setError(problems[0]);
    api
      .saveBudgetLimits(next)
      .then(() => api.budgetLimits())
      .then((limits) => {
        load(limits);
        setError(null);
        setSaved(true);
      })
      .catch((err) => setError(toCommandError(err).message));
  };
  const field = (key: string, label: string) => (
    <label key={key}>
      <span className="small">{label}</span>
      <span className="amount-field">
        <input inputMode="decimal" value={fields[key] ?? ""} onChange={(e) => set(key, e.target.value)} data-testid={`budget-${key}`} />
        <span className="muted small">{form.currency}</span>
      </span>
    </label>
  );

  return (
    <section className="budget-settings">
      <h2>{t.budgetTitle}</h2>
      <p className="muted">{t.budgetSettingsIntro}</p>
      <form onSubmit={save} className="budget-form" data-testid="budget-form">
        <div className="budget-fields">
          {field("daily", t.budgetDaily)}
          {field("monthly", t.budgetMonthly)}
          {field("background", t.budgetBackground)}
        </div>
        {form.providers.length > 0 && (
          <>
            <h3>{t.budgetProviderHead}</h3>
            <div className="budget-fields">
              {form.providers.flatMap((p) => [field(`${p.id}.daily`, t.budgetProviderDaily(p.id)), field(`${p.id}.monthly`, t.budgetProviderMonthly(p.id))])}
            </div>
          </>
        )}
        <div className="budget-fields">
          <label>
            <span className="small">{t.budgetCurrency}</span>
            <input
              value={form.currency}
              maxLength={3}
              onChange={(e) => {
                setSaved(false);
                setForm({ ...form, currency: e.target.value.toUpperCase() });
              }}
              data-testid="budget-currency"
            />
          </label>
          <label>
            <span className="small">{t.budgetRate(form.currency || "…")}</span>
            <input inputMode="decimal" value={fields.rate ?? ""} onChange={(e) => set("rate", e.target.value)} data-testid="budget-rate" />
          </label>
        </div>
        <p className="muted small">{t.budgetRateHint}</p>
        <label className="check">
          <input
            type="checkbox"
            checked={form.allow_unpriced}
            onChange={(e) => {
              setSaved(false);
              setForm({ ...form, allow_unpriced: e.target.checked });
            }}
            data-testid="budget-unpriced"
          />
          {t.budgetUnpriced}
        </label>
        <div className="form-actions">
          <button type="submit" data-testid="budget-save">
            {t.budgetSave}
          </button>
          {saved && (
            <span className="ok-text" role="status" data-testid="budget-saved">
              {t.budgetSaved}
            </span>
          )}
        </div>
        {error && (
          <div className="form-error" role="alert" data-testid="budget-error">
            {error}
          </div>
        )}
      </form>
    </section>
  );
}
