//! The profile as a form over the two files people may also edit by hand: the name
//! and how to address the user are lines of `user.md` ("- Name: Ana"), what Sidecar
//! should know about them is a section of `user.md`, and how Sidecar should answer is
//! a section of `SOUL.md`. Reading accepts the English and Spanish labels; saving
//! changes only those lines and sections, so whatever else the user wrote stays.

use serde::{Deserialize, Serialize};

use sidecar_domain::Lang;

/// The profile's fields, as the form shows them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct ProfileFields {
    pub name: String,
    /// How Sidecar addresses the user ("Ana", "tú", "Dr. Ruiz").
    pub address_as: String,
    /// What Sidecar should know about them, in their words.
    pub about: String,
    /// How Sidecar should answer (length, tone, language habits).
    pub answer_style: String,
}

/// A line field: its labels in each language, the first the one written.
struct LineField {
    en: &'static [&'static str],
    es: &'static [&'static str],
}

const NAME: LineField = LineField { en: &["Name"], es: &["Nombre"] };
const ADDRESS: LineField = LineField { en: &["Call me", "Address me as"], es: &["Llámame", "Llamarme"] };

/// A section field: its headings in each language, the first the one written.
struct SectionField {
    en: &'static [&'static str],
    es: &'static [&'static str],
}

const ABOUT: SectionField = SectionField { en: &["About me"], es: &["Sobre mí", "Sobre mi"] };
const STYLE: SectionField = SectionField { en: &["How to answer"], es: &["Cómo responder", "Como responder"] };

/// The fields found in `user` (user.md) and `soul` (SOUL.md).
pub(crate) fn read(user: &str, soul: &str) -> ProfileFields {
    ProfileFields {
        name: line_value(user, &NAME).unwrap_or_default(),
        address_as: line_value(user, &ADDRESS).unwrap_or_default(),
        about: section_body(user, &ABOUT).unwrap_or_default(),
        answer_style: section_body(soul, &STYLE).unwrap_or_default(),
    }
}

/// `user` and `soul` with the fields written in, and nothing else changed.
pub(crate) fn write(user: &str, soul: &str, fields: &ProfileFields, lang: Lang) -> (String, String) {
    let user = set_line(user, &NAME, fields.name.trim(), lang);
    let user = set_line(&user, &ADDRESS, fields.address_as.trim(), lang);
    let user = set_section(&user, &ABOUT, fields.about.trim(), lang);
    let soul = set_section(soul, &STYLE, fields.answer_style.trim(), lang);
    (user, soul)
}

fn labels<'a>(en: &'a [&'a str], es: &'a [&'a str]) -> impl Iterator<Item = &'a str> {
    en.iter().chain(es).copied()
}

/// The value after `- Label:` on the field's line, if the line is there.
fn line_value(text: &str, field: &LineField) -> Option<String> {
    text.lines().find_map(|line| line_label_value(line, field)).map(str::to_string)
}

fn line_label_value<'t>(line: &'t str, field: &LineField) -> Option<&'t str> {
    let item = line.trim_start().strip_prefix(['-', '*'])?.trim_start();
    let (label, value) = item.split_once(':')?;
    labels(field.en, field.es).any(|l| l.eq_ignore_ascii_case(label.trim())).then(|| value.trim())
}

fn set_line(text: &str, field: &LineField, value: &str, lang: Lang) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(at) = lines.iter().position(|l| line_label_value(l, field).is_some()) {
        let label = lines[at].split_once(':').map(|(l, _)| l.to_string()).unwrap_or_default();
        lines[at] = if value.is_empty() { format!("{label}:") } else { format!("{label}: {value}") };
    } else if !value.is_empty() {
        let label = match lang {
            Lang::En => field.en[0],
            Lang::Es => field.es[0],
        };
        // After the last list line of the first block of them, else after the title.
        let last_item = lines
            .iter()
            .position(|l| l.trim_start().starts_with("- "))
            .map(|first| first + lines[first..].iter().take_while(|l| l.trim_start().starts_with("- ")).count());
        let at = last_item.unwrap_or_else(|| lines.iter().position(|l| l.starts_with("# ")).map_or(0, |title| title + 1));
        lines.insert(at, format!("- {label}: {value}"));
    }
    joined(lines)
}

/// Where the section's heading is and where its body ends (the next heading of the
/// same or a higher level, or the end).
fn section_span(lines: &[String], field: &SectionField) -> Option<(usize, usize)> {
    let heading =
        lines.iter().position(|l| l.strip_prefix("## ").is_some_and(|title| labels(field.en, field.es).any(|h| h.eq_ignore_ascii_case(title.trim()))))?;
    let end = lines[heading + 1..].iter().position(|l| l.starts_with("# ") || l.starts_with("## ")).map_or(lines.len(), |n| heading + 1 + n);
    Some((heading, end))
}

fn section_body(text: &str, field: &SectionField) -> Option<String> {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (heading, end) = section_span(&lines, field)?;
    Some(lines[heading + 1..end].join("\n").trim().to_string())
}

fn set_section(text: &str, field: &SectionField, body: &str, lang: Lang) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match section_span(&lines, field) {
        Some((heading, end)) if body.is_empty() => {
            lines.drain(heading..end);
        }
        Some((heading, end)) => {
            let mut replacement = vec![String::new()];
            replacement.extend(body.lines().map(str::to_string));
            if end < lines.len() {
                replacement.push(String::new());
            }
            lines.splice(heading + 1..end, replacement);
        }
        None if body.is_empty() => {}
        None => {
            let heading = match lang {
                Lang::En => field.en[0],
                Lang::Es => field.es[0],
            };
            while lines.last().is_some_and(|l| l.trim().is_empty()) {
                lines.pop();
            }
            lines.push(String::new());
            lines.push(format!("## {heading}"));
            lines.push(String::new());
            lines.extend(body.lines().map(str::to_string));
        }
    }
    joined(lines)
}

fn joined(mut lines: Vec<String>) -> String {
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const USER: &str = "# Profile\n\n- Name:\n- Language: English\n\nI keep notes here by hand.\n";
    const SOUL: &str = "# Sidecar\n\nI am Sidecar, a warm and concise companion.\n";

    #[test]
    fn a_fresh_profile_reads_empty_and_fills_in_without_losing_a_line() {
        assert_eq!(read(USER, SOUL), ProfileFields::default());
        let fields = ProfileFields {
            name: "Ana Ruiz".into(),
            address_as: "Ana".into(),
            about: "Nurse on night shifts.\nAllergic to peanuts.".into(),
            answer_style: "Short answers, no lists.".into(),
        };
        let (user, soul) = write(USER, SOUL, &fields, Lang::En);
        assert_eq!(
            user,
            "# Profile\n\n- Name: Ana Ruiz\n- Language: English\n- Call me: Ana\n\nI keep notes here by hand.\n\n## About me\n\nNurse on night shifts.\nAllergic to peanuts.\n"
        );
        assert!(soul.starts_with(SOUL.trim_end()) && soul.ends_with("## How to answer\n\nShort answers, no lists.\n"), "{soul}");
        assert_eq!(read(&user, &soul), fields);
        // Saving the same again changes nothing.
        assert_eq!(write(&user, &soul, &fields, Lang::En), (user.clone(), soul.clone()));
    }

    #[test]
    fn spanish_labels_are_read_and_kept_and_a_section_in_the_middle_is_replaced() {
        let user = "# Perfil\n\n- Nombre: Ana\n- Llámame: Anita\n\n## Sobre mí\n\nEnfermera.\n\n## Otras cosas\n\nMías.\n";
        let fields = read(user, "");
        assert_eq!((fields.name.as_str(), fields.address_as.as_str(), fields.about.as_str()), ("Ana", "Anita", "Enfermera."));
        let changed = ProfileFields { about: "Enfermera en el turno de noche.".into(), ..fields };
        let (written, _) = write(user, "", &changed, Lang::Es);
        assert_eq!(written, "# Perfil\n\n- Nombre: Ana\n- Llámame: Anita\n\n## Sobre mí\n\nEnfermera en el turno de noche.\n\n## Otras cosas\n\nMías.\n");
    }

    #[test]
    fn an_emptied_field_clears_its_value_and_its_section() {
        let user = "# Profile\n\n- Name: Ana\n\n## About me\n\nNurse.\n";
        let (written, _) = write(user, "", &ProfileFields::default(), Lang::En);
        assert_eq!(written, "# Profile\n\n- Name:\n");
    }
}
