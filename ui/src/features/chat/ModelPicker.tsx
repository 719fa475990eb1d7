import { useEffect, useState } from "react";
import { api, type ProviderView } from "../../api";
import { useStrings } from "../../i18n";

const AUTO = "";
const OFFLINE = "local";

/** Picks the model for this conversation. A picked model never silently falls back. */
export function ModelPicker({ refreshKey }: { refreshKey: string }) {
  const t = useStrings();
  const [providers, setProviders] = useState<ProviderView[]>([]);
  const [pinned, setPinned] = useState<string>(AUTO);
  useEffect(() => {
    api.listProviders().then(setProviders).catch(() => undefined);
    api.pinnedModel().then((p) => setPinned(p ?? AUTO)).catch(() => undefined);
  }, [refreshKey]);
  return (
    <select
      className="model-picker"
      aria-label={t.modelPickerLabel}
      title={t.modelPickerLabel}
      data-testid="model-picker"
      value={pinned}
      onChange={(e) => {
        const value = e.target.value;
        setPinned(value);
        api.pinModel(value === AUTO ? null : value).catch(() => undefined);
      }}
    >
      <option value={AUTO}>{t.modelAuto}</option>
      {providers.map((p) => (
        <option key={p.id} value={p.id}>
          {p.model} ({p.id})
        </option>
      ))}
      <option value={OFFLINE}>{t.modelOffline}</option>
    </select>
  );
}
