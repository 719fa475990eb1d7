// The model field of a provider form: typed, or picked from the list the server
// itself offers (`/v1/models`), fetched on demand with the form's address and key.
import { useState } from "react";
import { api, toCommandError, type ProviderInput } from "../../api";
import { useStrings } from "../../i18n";

export function ModelListField({ form, onPick }: { form: ProviderInput; onPick: (model: string) => void }) {
  const t = useStrings();
  const [models, setModels] = useState<string[] | "loading" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    setError(null);
    setModels("loading");
    try {
      const list = await api.listProviderModels({ ...form, api_key: form.api_key || null, api_key_env: form.api_key_env || null });
      setModels(list);
      if (list.length > 0 && !list.includes(form.model)) onPick(list[0]);
    } catch (e) {
      setModels(null);
      setError(toCommandError(e).message);
    }
  };
  return (
    <div className="model-field">
      <label>
        {t.fieldModel}
        {Array.isArray(models) && models.length > 0 ? (
          <select value={form.model} onChange={(e) => onPick(e.target.value)} data-testid="field-model-list">
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <input value={form.model} onChange={(e) => onPick(e.target.value)} data-testid="field-model" />
        )}
      </label>
      <button type="button" className="ghost small" onClick={load} disabled={!form.base_url || models === "loading"} data-testid="load-models">
        {models === "loading" ? t.loadingModels : t.loadModels}
      </button>
      {Array.isArray(models) && <span className="muted small">{t.modelsLoaded(models.length)}</span>}
      {error && (
        <span className="bad small" role="alert" data-testid="models-error">
          {error}
        </span>
      )}
    </div>
  );
}
