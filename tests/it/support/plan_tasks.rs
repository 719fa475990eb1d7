//! Ten multi-step tasks and a scripted model that works through them the way a model
//! with tools does: it plans with `update_plan`, runs one step per round (marking it
//! done with a short result), and answers in words when all are done. Some tasks make
//! it lazy (it stops to talk half-way) and some make it stuck (it repeats a call), so
//! the core's carrying-on, its no-progress check and its summary are what is tested.
//! Shared by `tests/it/plans.rs` and `benches/plans.rs`.

use serde_json::{json, Value};

use super::{reply_events, stream, tool_call_events, Reply};

pub(crate) struct Step {
    pub text: &'static str,
    pub tool: &'static str,
    pub arguments: Value,
    /// What the model writes as the step's result.
    pub result: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Behaviour {
    /// One step per round until done.
    Diligent,
    /// Answers in words after this many steps, as small models do.
    LazyAfter(usize),
    /// Runs the first step, then asks for it again and again.
    Stuck,
    /// Plans, then only talks about it.
    Talks,
}

pub(crate) struct Task {
    pub request: &'static str,
    pub steps: Vec<Step>,
    pub behaviour: Behaviour,
}

fn step(text: &'static str, tool: &'static str, arguments: Value, result: &'static str) -> Step {
    Step { text, tool, arguments, result }
}

fn remind(text: &'static str, message: &str, when: &str, result: &'static str) -> Step {
    step(text, "set_reminder", json!({"message": message, "when": when}), result)
}

fn fact(text: &'static str, said: &str, category: &str, result: &'static str) -> Step {
    step(text, "remember_fact", json!({"fact": said, "category": category}), result)
}

/// The tasks, in the order they are asked in one conversation.
pub(crate) fn tasks() -> Vec<Task> {
    use Behaviour::*;
    vec![
        Task {
            request: "Get ready for Ana's visit: set a reminder to clean the flat tomorrow at 10, then one to buy tulips on Friday at 18:00, and save that Ana likes tulips",
            steps: vec![
                remind("Reminder to clean the flat", "clean the flat", "tomorrow at 10", "set for tomorrow 10:00"),
                remind("Reminder to buy tulips", "buy tulips", "Friday at 18:00", "set for Friday 18:00"),
                fact("Save Ana's flowers", "Ana likes tulips", "Relationships", "saved under Relationships"),
            ],
            behaviour: Diligent,
        },
        Task {
            request: "Check what time it is, then list my reminders and find the one about tulips",
            steps: vec![
                step("Check the time", "get_current_time", json!({}), "it is the afternoon"),
                step("List the reminders", "list_reminders", json!({}), "two reminders pending"),
                step("Find the tulips one", "find_reminder", json!({"query": "tulips"}), "found: buy tulips"),
            ],
            behaviour: LazyAfter(1),
        },
        Task {
            request: "Guardá que soy vegetariano, después anotá que trabajo de enfermero y luego poné un recordatorio para el turno del lunes a las 7",
            steps: vec![
                fact("Guardar la dieta", "Es vegetariano", "Preferences", "guardado en Preferencias"),
                fact("Guardar el trabajo", "Trabaja de enfermero", "Work", "guardado en Trabajo"),
                remind("Recordatorio del turno", "turno en el hospital", "el lunes a las 7", "para el lunes 07:00"),
            ],
            behaviour: LazyAfter(2),
        },
        Task {
            request: "For the trip:\n- set a reminder to renew the passport next Monday at 9\n- save that I prefer window seats\n- add a reminder to pack on the 20th at 20:00",
            steps: vec![
                remind("Passport reminder", "renew the passport", "next Monday at 9", "set for Monday 09:00"),
                fact("Seat preference", "Prefers window seats", "Preferences", "saved"),
                remind("Packing reminder", "pack the suitcase", "the 20th at 20:00", "set for the 20th 20:00"),
            ],
            behaviour: Diligent,
        },
        Task {
            request: "Buscá mis recordatorios, compará cuáles son de esta semana y armá un resumen",
            steps: vec![
                step("Listar recordatorios", "list_reminders", json!({}), "cuatro pendientes"),
                step("Buscar los del pasaporte", "find_reminder", json!({"query": "passport"}), "uno, el lunes"),
            ],
            behaviour: Diligent,
        },
        Task {
            request: "Save that my sister is called Lucía, then remind me in the app about her birthday on March 3 every year",
            steps: vec![
                fact("Save the sister's name", "Has a sister called Lucía", "Relationships", "saved under Relationships"),
                remind("Birthday reminder", "Lucía's birthday", "every year on March 3", "repeats every 3 March"),
            ],
            behaviour: LazyAfter(1),
        },
        Task {
            request: "Tareas de hoy:\n1. poné un recordatorio para llamar al banco a las 16\n2. guardá que mi banco es el Galicia\n3. buscá el recordatorio del banco",
            steps: vec![
                remind("Recordatorio del banco", "llamar al banco", "hoy a las 16", "para hoy 16:00"),
                fact("Guardar el banco", "Su banco es el Galicia", "General", "guardado"),
                step("Buscar el recordatorio", "find_reminder", json!({"query": "banco"}), "encontrado"),
            ],
            behaviour: Diligent,
        },
        Task {
            request: "First save that I run on Tuesdays, then set a reminder for the run every Tuesday at 7, and finally save that my goal is a 10k in spring",
            steps: vec![
                fact("Save the running day", "Runs on Tuesdays", "Schedule", "saved under Schedule"),
                remind("Weekly run reminder", "go for a run", "every Tuesday at 7", "every Tuesday 07:00"),
                fact("Save the goal", "Wants to run a 10k in spring", "Goals", "saved under Goals"),
            ],
            behaviour: LazyAfter(2),
        },
        Task {
            request: "Look up what time it is in my zone and then save that I work from home on Fridays and set a reminder for the weekly call on Friday at 11",
            steps: vec![
                step("Check the time", "get_current_time", json!({"zone": "local"}), "checked"),
                fact("Save home office day", "Works from home on Fridays", "Work", "saved under Work"),
                remind("Weekly call reminder", "weekly call", "Friday at 11", "set for Friday 11:00"),
            ],
            behaviour: Diligent,
        },
        Task {
            request: "Guardá que me gusta el jazz, poné un recordatorio para el concierto el sábado a las 21 y buscá el recordatorio del concierto",
            steps: vec![
                fact("Guardar el gusto", "Le gusta el jazz", "Preferences", "guardado en Preferencias"),
                remind("Recordatorio del concierto", "concierto de jazz", "el sábado a las 21", "para el sábado 21:00"),
                step("Buscar el concierto", "find_reminder", json!({"query": "concierto"}), "encontrado"),
            ],
            behaviour: Diligent,
        },
    ]
}

/// Tasks on which the model gets stuck: it repeats a call, or it only talks.
pub(crate) fn stuck_tasks() -> Vec<Task> {
    vec![
        Task {
            request: "List my reminders, then cancel the dentist one and save that I changed dentists",
            steps: vec![
                step("List the reminders", "list_reminders", json!({}), "listed"),
                step("Cancel the dentist", "cancel_reminder", json!({"id": 1}), "cancelled"),
                fact("Save the change", "Changed dentists", "Health", "saved"),
            ],
            behaviour: Behaviour::Stuck,
        },
        Task {
            request: "Buscá el recordatorio del gimnasio, cancelalo y guardá que dejé el gimnasio",
            steps: vec![
                step("Buscar el gimnasio", "find_reminder", json!({"query": "gimnasio"}), "buscado"),
                fact("Guardar el cambio", "Dejó el gimnasio", "General", "guardado"),
            ],
            behaviour: Behaviour::Talks,
        },
    ]
}

fn said(message: &Value) -> String {
    super::said(message)
}

/// The tool calls made since the task was asked, as (name, arguments).
fn calls_since(messages: &[Value]) -> Vec<(String, Value)> {
    messages
        .iter()
        .filter_map(|m| m["tool_calls"].as_array())
        .flatten()
        .map(|c| {
            let name = c["function"]["name"].as_str().unwrap_or_default().to_string();
            let arguments = serde_json::from_str(c["function"]["arguments"].as_str().unwrap_or("{}")).unwrap_or(Value::Null);
            (name, arguments)
        })
        .collect()
}

fn plan(task: &Task, done: usize) -> Value {
    let items: Vec<Value> = task
        .steps
        .iter()
        .enumerate()
        .map(|(n, s)| match n {
            n if n < done => json!({"text": s.text, "status": "done", "result": s.result}),
            n if n == done => json!({"text": s.text, "status": "in_progress"}),
            _ => json!({"text": s.text, "status": "pending"}),
        })
        .collect();
    json!({ "items": items })
}

/// What the scripted model answers to `request`, working on whichever task it finds.
pub(crate) fn respond(tasks: &[Task], request: &Value) -> Reply {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let Some((at, task)) = messages
        .iter()
        .enumerate()
        .rev()
        .find_map(|(n, m)| (m["role"] == "user").then(|| tasks.iter().find(|t| said(m) == t.request)).flatten().map(|t| (n, t)))
    else {
        return stream(reply_events(&["ok"]));
    };
    let since = &messages[at + 1..];
    let calls = calls_since(since);
    let planned = calls.iter().any(|(name, _)| name == "update_plan");
    let steps_run = calls.iter().filter(|(name, _)| name != "update_plan").count();
    let id = |kind: &str| format!("{kind}{}", messages.len());
    let call = |kind: &str, name: &str, arguments: &Value| (id(kind), name.to_string(), arguments.to_string());
    let reply = |calls: Vec<(String, String, String)>| {
        let borrowed: Vec<(&str, &str, &str)> = calls.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect();
        stream(tool_call_events(&borrowed))
    };
    if !planned {
        return reply(vec![call("p", "update_plan", &plan(task, 0))]);
    }
    match task.behaviour {
        Behaviour::Stuck => {
            let first = &task.steps[0];
            return reply(vec![call("s", first.tool, &first.arguments)]);
        }
        Behaviour::Talks => return stream(reply_events(&["Voy a ocuparme de eso."])),
        _ => {}
    }
    let last_was_words = since.last().is_some_and(|m| m["role"] == "user");
    if steps_run == task.steps.len() {
        return stream(reply_events(&["All set."]));
    }
    if let Behaviour::LazyAfter(n) = task.behaviour {
        // Stops to talk once, unless it was just told to go on.
        let talked = since.iter().any(|m| m["role"] == "assistant" && m["tool_calls"].is_null());
        if steps_run == n && !talked && !last_was_words {
            return stream(reply_events(&["Done with the first part."]));
        }
    }
    let next = &task.steps[steps_run];
    reply(vec![call("s", next.tool, &next.arguments), call("p", "update_plan", &plan(task, steps_run + 1))])
}

/// The calls the model made for `task`, by name and arguments, from the last request
/// that carried it.
pub(crate) fn calls_for(requests: &[Value], task: &Task) -> Vec<(String, Value)> {
    let Some(last) = requests.iter().rev().find(|r| r["messages"].as_array().is_some_and(|m| m.iter().any(|m| said(m) == task.request))) else {
        return Vec::new();
    };
    let messages = last["messages"].as_array().cloned().unwrap_or_default();
    let at = messages.iter().rposition(|m| said(m) == task.request).unwrap_or(0);
    calls_since(&messages[at..])
}

/// Every step of `task` ran exactly once among `calls`.
pub(crate) fn each_step_once(task: &Task, calls: &[(String, Value)]) -> bool {
    task.steps.iter().all(|s| calls.iter().filter(|(name, args)| name == s.tool && *args == s.arguments).count() == 1)
}
