import { useEffect, useState } from "react";
import { api, toCommandError, type Sampling, type TuningView } from "../../api";
import { useStrings } from "../../i18n";
import { SamplingFields } from "./SamplingFields";

/** Settings → Local models: the offline model's sampling and window, over the catalogue's defaults. */
export function LocalTuning() {
  const t = useStrings();
  const [view, setView] = useState<TuningView | null>(null);
  const [sampling, setSampling] = useState<Sampling>({});
  const [context, setContext] = useState<number | null>(null);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  const show = (v: TuningView) => {
    setView(v);
    setSampling(v.sampling);
    setContext(v.context_tokens);
  };
  useEffect(() => {
    api.localTuning().then(show, (e) => setNote({ text: toCommandError(e).message, error: true }));
  }, []);
  if (!view) return null;
  const save = async () => {
    setSaving(true);
    setNote(null);
    try {
      show(await api.setLocalTuning(sampling, context));
      setNote({ text: t.localTuningSaved, error: false });
    } catch (e) {
      setNote({ text: toCommandError(e).message, error: true });
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className="local-tuning"
      data-testid="local-tuning"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <h3>{t.localTuningTitle(view.model)}</h3>
      <SamplingFields
        value={sampling}
        onChange={setSampling}
        context={context}
        onContext={setContext}
        defaults={view.defaults}
        contextDefault={view.context_default}
        limits={view.limits}
        testIdPrefix="local-sampling"
      />
      <div className="row">
        <button type="submit" className="small" disabled={saving} data-testid="local-tuning-save">
          {t.save}
        </button>
        {note && (
          <span className={note.error ? "form-error small" : "muted small"} role={note.error ? "alert" : "status"} data-testid="local-tuning-note">
            {note.text}
          </span>
        )}
      </div>
    </form>
  );
}
