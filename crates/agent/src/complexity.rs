//! Which requests take several steps, decided by rules rather than the model, in
//! Spanish and English: sequencing words ("then", "y luego") with two actions, three
//! or more actions, or a list of two or more things to do. Such a request gets a hint,
//! late in the prompt, to plan with `update_plan` before acting.

use sidecar_memory::words::fold;

/// Imperatives and infinitives of things Sidecar (or its tools) can do, accent-folded.
const ACTIONS: &[&str] = &[
    // English
    "remind",
    "set",
    "save",
    "remember",
    "search",
    "find",
    "look",
    "check",
    "send",
    "write",
    "create",
    "book",
    "buy",
    "email",
    "call",
    "schedule",
    "add",
    "delete",
    "remove",
    "compare",
    "summarize",
    "summarise",
    "plan",
    "translate",
    "read",
    "open",
    "make",
    "cancel",
    "move",
    "list",
    "note",
    "organize",
    "organise",
    "research",
    "draft",
    "download",
    "order",
    "pay",
    "update",
    "prepare",
    "get",
    "fetch",
    "reply",
    "invite",
    "rename",
    "sort",
    "review",
    "calculate",
    "convert",
    "export",
    "print",
    "share",
    "post",
    "clean",
    "fix",
    "pick",
    "choose",
    "text",
    // Spanish (voseo, tú and infinitive)
    "recorda",
    "recuerda",
    "recordar",
    "avisa",
    "avisar",
    "busca",
    "buscar",
    "guarda",
    "guardar",
    "anota",
    "anotar",
    "manda",
    "mandar",
    "envia",
    "enviar",
    "escribi",
    "escribe",
    "escribir",
    "crea",
    "crear",
    "reserva",
    "reservar",
    "compra",
    "comprar",
    "llama",
    "llamar",
    "agenda",
    "agendar",
    "anadi",
    "anade",
    "anadir",
    "agrega",
    "agregar",
    "borra",
    "borrar",
    "elimina",
    "eliminar",
    "compara",
    "comparar",
    "resumi",
    "resume",
    "resumir",
    "planifica",
    "planificar",
    "organiza",
    "organizar",
    "traduci",
    "traduce",
    "traducir",
    "lee",
    "leer",
    "abri",
    "abre",
    "abrir",
    "haz",
    "hacer",
    "cancela",
    "cancelar",
    "mueve",
    "mover",
    "investiga",
    "investigar",
    "prepara",
    "preparar",
    "revisa",
    "revisar",
    "pon",
    "pone",
    "poner",
    "calcula",
    "calcular",
    "descarga",
    "descargar",
    "pedi",
    "pide",
    "pedir",
    "paga",
    "pagar",
    "actualiza",
    "actualizar",
    "consegui",
    "consigue",
    "conseguir",
    "elegi",
    "elige",
    "elegir",
    "decime",
    "dime",
    "contame",
    "cuentame",
    "mira",
    "fijate",
    "chequea",
    "chequear",
    "arma",
    "armar",
];

/// Words that put actions in an order.
const SEQUENCING: &[&str] = &[
    "then",
    "after that",
    "afterwards",
    "and next",
    "next,",
    "finally",
    "once that",
    "first,",
    "lastly",
    "despues",
    "luego",
    "a continuacion",
    "por ultimo",
    "finalmente",
    "primero",
    "al final",
    "tras eso",
    "y entonces",
];

/// Pronouns Spanish glues onto an imperative ("recordame", "buscalo", "mandaselo").
const ENCLITICS: &[&str] = &["me", "te", "lo", "la", "le", "los", "las", "les", "nos", "se"];

/// A request that takes several steps.
pub(crate) fn is_complex(text: &str) -> bool {
    let folded = fold(&text.to_lowercase());
    let actions = action_count(&folded);
    let sequenced = SEQUENCING.iter().any(|w| contains_phrase(&folded, w));
    let listed = folded.lines().filter(|l| is_list_item(l) && action_count(l) > 0).count();
    actions >= 3 || (sequenced && actions >= 2) || listed >= 2
}

/// Words after which a verb is said, not asked for ("what you find", "I call her").
const SUBJECTS: &[&str] = &["i", "you", "we", "they", "he", "she", "it", "yo", "vos", "tu", "usted", "nosotros", "ellos"];

fn action_count(folded: &str) -> usize {
    let words: Vec<&str> = folded.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    words.iter().enumerate().filter(|(n, w)| is_action(w) && !(*n > 0 && SUBJECTS.contains(&words[n - 1]))).count()
}

fn is_action(word: &str) -> bool {
    if ACTIONS.contains(&word) {
        return true;
    }
    // Strip up to two glued pronouns: "mandaselo" → "mandase" → "manda".
    let mut rest = word;
    for _ in 0..2 {
        let Some(stripped) = ENCLITICS.iter().find_map(|p| rest.strip_suffix(p)).filter(|s| s.len() >= 3) else { return false };
        if ACTIONS.contains(&stripped) {
            return true;
        }
        rest = stripped;
    }
    false
}

fn contains_phrase(folded: &str, phrase: &str) -> bool {
    folded.match_indices(phrase).any(|(at, _)| {
        let before = folded[..at].chars().next_back();
        let after = folded[at + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn is_list_item(line: &str) -> bool {
    let line = line.trim_start();
    if line.starts_with(['-', '*', '•']) {
        return true;
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with(['.', ')'])
}

/// What the per-turn block says when a request takes several steps.
pub const PLAN_HINT: &str = "This request takes several steps. Before acting, write a plan with update_plan (one step per action; a step that needs an earlier one's result names it in after), then carry it out step by step with your tools, marking each step done (or failed) with a short result. Do not stop until every step is done or you cannot go on.";

#[cfg(test)]
mod tests {
    use super::is_complex;

    #[test]
    fn several_steps_in_either_language_and_single_asks_are_not() {
        let complex = [
            "Find flights to Rome, compare the hotels and book the cheapest one",
            "Search for a pasta recipe and then add the ingredients to my list",
            "Remind me to call mom at 5, then save that her birthday is May 3",
            "Buscá vuelos a Roma y después guardá el más barato",
            "Recordame llamar a mamá a las 5 y luego anotá que su cumple es el 3 de mayo",
            "Primero revisá mis recordatorios, después borrá los de ayer",
            "Please:\n- buy milk\n- call the plumber\n- email Ana",
            "Tareas:\n1. comprar pan\n2. llamar al dentista",
            "Investigá precios, compará opciones y prepará un resumen",
        ];
        let simple = [
            "Remind me to buy milk tomorrow at 9",
            "What happened then?",
            "Recuérdame mañana llamar a Ana",
            "¿Qué tiempo hace hoy?",
            "I went to Rome and then to Paris last summer",
            "Shopping list:\n- milk\n- eggs",
            "hola, ¿cómo estás?",
            "Save that I like jazz",
            "Turn 12: look up item 12 and tell me what you find.",
        ];
        for text in complex {
            assert!(is_complex(text), "complex: {text}");
        }
        for text in simple {
            assert!(!is_complex(text), "simple: {text}");
        }
    }
}
