// The facts' categories as a select, in the user's language.
import { CATEGORIES, type Category } from "../../api";
import { useStrings } from "../../i18n";

export function CategorySelect({ value, onChange, testId }: { value: Category; onChange: (c: Category) => void; testId: string }) {
  const t = useStrings();
  return (
    <select value={value} aria-label={t.categoryLabel} onChange={(e) => onChange(e.target.value as Category)} data-testid={testId}>
      {CATEGORIES.map((c) => (
        <option key={c} value={c}>
          {t.category(c)}
        </option>
      ))}
    </select>
  );
}
