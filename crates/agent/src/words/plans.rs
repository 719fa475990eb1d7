//! How a plan's progress and outcome are said: under the reply that ends a plan, and
//! in the tray while one is worked on.

use super::Lang;
use crate::context::plan_item::{ItemStatus, PlanItem};

/// Follows the reply of a turn that worked on a plan: each step with what it produced
/// when all are closed (`finished`), or what is done and what is left.
pub(crate) fn summary(items: &[PlanItem], finished: bool, lang: Lang) -> String {
    let (summary, done_so_far, left, nothing_yet) = match lang {
        Lang::En => ("Summary", "Done so far", "Left to do", "No step of the plan is done yet."),
        Lang::Es => ("Resumen", "Hecho hasta ahora", "Falta", "Todavía no hay ningún paso del plan hecho."),
    };
    let closed: Vec<String> = items.iter().filter(|i| i.status.is_closed()).map(line).collect();
    if finished {
        return format!("**{summary}**\n{}", closed.join("\n"));
    }
    let open: Vec<String> = items.iter().filter(|i| !i.status.is_closed()).map(line).collect();
    let done = if closed.is_empty() { nothing_yet.to_string() } else { closed.join("\n") };
    format!("**{done_so_far}**\n{done}\n\n**{left}**\n{}", open.join("\n"))
}

fn line(item: &PlanItem) -> String {
    let mark = match item.status {
        ItemStatus::Done => "✓",
        ItemStatus::Failed => "✗",
        ItemStatus::InProgress => "▸",
        ItemStatus::Pending => "○",
    };
    match item.result.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        Some(result) => format!("- {mark} {}: {result}", item.text.trim()),
        None => format!("- {mark} {}", item.text.trim()),
    }
}

/// The tray's tooltip while a plan is worked on.
pub fn working(done: usize, total: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Sidecar — working: step {} of {total}", (done + 1).min(total)),
        Lang::Es => format!("Sidecar — trabajando: paso {} de {total}", (done + 1).min(total)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_step_with_its_result_in_both_languages() {
        let mut flights = PlanItem::new("Find flights", ItemStatus::Done);
        flights.result = Some("IB3170 at 08:05".into());
        let mut hotel = PlanItem::new("Book the hotel", ItemStatus::Failed);
        hotel.result = Some("no rooms left".into());
        let finished = summary(&[flights.clone(), hotel], true, Lang::En);
        assert_eq!(finished, "**Summary**\n- ✓ Find flights: IB3170 at 08:05\n- ✗ Book the hotel: no rooms left");
        let left = summary(&[flights, PlanItem::new("Pack", ItemStatus::Pending)], false, Lang::Es);
        assert_eq!(left, "**Hecho hasta ahora**\n- ✓ Find flights: IB3170 at 08:05\n\n**Falta**\n- ○ Pack");
        assert!(summary(&[PlanItem::new("Pack", ItemStatus::InProgress)], false, Lang::En).contains("No step of the plan is done yet."));
        assert_eq!(working(2, 5, Lang::Es), "Sidecar — trabajando: paso 3 de 5");
    }
}
