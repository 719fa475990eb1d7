/** Radio choices as Settings shows them: a name and a short note per choice. */
export function ChoiceGroup<T extends string>({
  name,
  label,
  choices,
  value,
  testIdPrefix,
  describe,
  onChange,
}: {
  name: string;
  label: string;
  choices: T[];
  value: T;
  testIdPrefix: string;
  describe: (choice: T) => [string, string];
  onChange: (choice: T) => void;
}) {
  return (
    <div className="search-choices" role="radiogroup" aria-label={label}>
      {choices.map((c) => {
        const [title, about] = describe(c);
        return (
          <label key={c} className={`search-choice${value === c ? " active" : ""}`}>
            <input type="radio" name={name} value={c} checked={value === c} data-testid={`${testIdPrefix}-${c}`} onChange={() => onChange(c)} />
            <span>
              <strong>{title}</strong> <span className="muted small">{about}</span>
            </span>
          </label>
        );
      })}
    </div>
  );
}
