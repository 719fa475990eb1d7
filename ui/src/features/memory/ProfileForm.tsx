import { useEffect, useState } from "react";
import { api, toCommandError, type ProfileFields, type ProfileView } from "../../api";
import { useStrings } from "../../i18n";

/**
 * The profile as a form: the core reads the fields out of user.md and SOUL.md and
 * writes them back in place, so what else is in those files stays. A save is refused
 * when a file changed since it was read; the form then reloads what is on disk.
 */
export function ProfileForm() {
  const t = useStrings();
  const [view, setView] = useState<ProfileView | null>(null);
  const [fields, setFields] = useState<ProfileFields | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    api
      .profileFields()
      .then((v) => {
        setView(v);
        setFields(v.fields);
      })
      .catch((e) => setMessage({ text: toCommandError(e).message, error: true }));
  }, []);

  if (!view || !fields) {
    return message ? (
      <div className="form-error" role="alert">
        {message.text}
      </div>
    ) : null;
  }
  const set = (patch: Partial<ProfileFields>) => {
    setFields({ ...fields, ...patch });
    setMessage(null);
  };
  const changed = (Object.keys(fields) as (keyof ProfileFields)[]).some((k) => fields[k] !== view.fields[k]);
  const save = async () => {
    setSaving(true);
    try {
      const saved = await api.saveProfileFields(fields, view.user_version, view.soul_version);
      setView(saved);
      setFields(saved.fields);
      setMessage({ text: t.profileSaved, error: false });
    } catch (e) {
      setMessage({ text: toCommandError(e).message, error: true });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="profile-form"
      data-testid="profile-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <p className="muted small">{t.profileFormIntro}</p>
      <label>
        {t.profileName}
        <input value={fields.name} onChange={(e) => set({ name: e.target.value })} autoComplete="name" data-testid="profile-name" />
      </label>
      <label>
        {t.profileAddressAs}
        <input value={fields.address_as} placeholder={t.profileAddressHint} onChange={(e) => set({ address_as: e.target.value })} data-testid="profile-address" />
      </label>
      <label>
        {t.profileAbout}
        <textarea rows={5} value={fields.about} placeholder={t.profileAboutHint} onChange={(e) => set({ about: e.target.value })} data-testid="profile-about" />
      </label>
      <label>
        {t.profileStyle}
        <textarea rows={3} value={fields.answer_style} placeholder={t.profileStyleHint} onChange={(e) => set({ answer_style: e.target.value })} data-testid="profile-style" />
      </label>
      <div className="row">
        <button type="submit" disabled={!changed || saving} data-testid="profile-form-save">
          {t.save}
        </button>
        {changed && (
          <span className="warn-text small" data-testid="profile-form-unsaved">
            {t.unsavedChanges}
          </span>
        )}
        {message && (
          <span className={message.error ? "form-error small" : "muted small"} role={message.error ? "alert" : "status"} data-testid="profile-form-message">
            {message.text}
          </span>
        )}
      </div>
    </form>
  );
}
