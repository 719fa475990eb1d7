import { useEffect, useState } from "react";
import { api, toCommandError, type PermissionChoice, type PermissionQuestion } from "../../api";
import { useStrings } from "../../i18n";

/** Tools waiting for the user's permission: the server, the tool, the full arguments,
 * and the five answers. Questions asked before the window opened are fetched once. */
export function PermissionCards() {
  const t = useStrings();
  const [questions, setQuestions] = useState<PermissionQuestion[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api
      .permissionQuestions()
      .then((waiting) => setQuestions((current) => [...(waiting ?? []).filter((w) => !current.some((c) => c.id === w.id)), ...current]))
      .catch(() => undefined);
    const off = api.onCoreEvent((event) => {
      if (event.type === "permission_asked") setQuestions((current) => [...current.filter((q) => q.id !== event.question.id), event.question]);
      if (event.type === "permission_settled") setQuestions((current) => current.filter((q) => q.id !== event.id));
    });
    return () => {
      off.then((f) => f());
    };
  }, []);

  if (questions.length === 0) return null;
  const answer = (question: PermissionQuestion, choice: PermissionChoice) => {
    setQuestions((current) => current.filter((q) => q.id !== question.id));
    api.answerPermission(question.id, choice).catch((e) => setError(toCommandError(e).message));
  };
  const labels: Partial<Record<PermissionChoice, string>> = {
    allow_once: t.allowOnce,
    allow_in_chat: t.allowInChat,
    always_tool: t.alwaysTool,
    always_server: t.alwaysServer,
  };

  return (
    <div className="permission-cards">
      {questions.map((question, index) => (
        <section key={question.id} className="permission-card" role="alertdialog" aria-labelledby={`permission-${question.id}`} data-testid="permission-card">
          <h3 id={`permission-${question.id}`}>
            {question.title}
          </h3>
          {question.description && <p className="muted small">{question.description}</p>}
          {question.changed.length > 0 && (
            <p className="permission-changed" role="alert" data-testid="permission-changed">
              {t.permissionChanged(question.changed.join(", "))}
            </p>
          )}
          <div className="label small">{t.permissionArguments}</div>
          <pre data-testid="permission-arguments">{JSON.stringify(question.arguments, null, 2)}</pre>
          <div className="row wrap">
            {/* The answers the core offers for this question; Deny is shown apart, last. */}
            {question.choices.map(
              (choice) =>
                labels[choice] && (
                  <button key={choice} type="button" className={choice === "allow_once" ? "" : "ghost"} autoFocus={index === 0 && choice === "allow_once"} onClick={() => answer(question, choice)} data-testid={`permission-${choice}`}>
                    {labels[choice]}
                  </button>
                ),
            )}
            <button type="button" className="ghost danger" onClick={() => answer(question, "deny")} data-testid="permission-deny">
              {t.deny}
            </button>
          </div>
          <p className="muted small">{t.permissionWaits}</p>
        </section>
      ))}
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
