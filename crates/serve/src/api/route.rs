//! Which operation a request asks for, from its method and path alone, and the scope
//! that operation needs.

use crate::connections::Scope;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    OpenApi,
    Models,
    Recall,
    ListFacts,
    AddFact,
    ListReminders,
    SetReminder,
    CancelReminder(i64),
    PostMessage,
    ChatCompletions,
}

impl Route {
    pub(crate) fn of(method: &http::Method, path: &str) -> Option<Route> {
        use http::Method;
        let path = path.trim_end_matches('/');
        let route = match (method, path) {
            (&Method::GET, "/v1/openapi.json") => Route::OpenApi,
            (&Method::GET, "/v1/models") => Route::Models,
            (&Method::POST, "/v1/recall") => Route::Recall,
            (&Method::GET, "/v1/facts") => Route::ListFacts,
            (&Method::POST, "/v1/facts") => Route::AddFact,
            (&Method::GET, "/v1/reminders") => Route::ListReminders,
            (&Method::POST, "/v1/reminders") => Route::SetReminder,
            (&Method::POST, "/v1/messages") => Route::PostMessage,
            (&Method::POST, "/v1/chat/completions") => Route::ChatCompletions,
            (&Method::DELETE, _) => Route::CancelReminder(path.strip_prefix("/v1/reminders/")?.parse().ok()?),
            _ => return None,
        };
        Some(route)
    }

    /// The scope a client needs; `None` for what any client with a token may read.
    pub(crate) fn scope(&self) -> Option<Scope> {
        match self {
            Route::OpenApi | Route::Models => None,
            Route::Recall | Route::ListFacts => Some(Scope::ReadMemory),
            Route::AddFact => Some(Scope::WriteMemory),
            Route::ListReminders | Route::SetReminder | Route::CancelReminder(_) => Some(Scope::Reminders),
            Route::PostMessage => Some(Scope::Messages),
            Route::ChatCompletions => Some(Scope::Chat),
        }
    }

    /// How the client's activity names it.
    pub(crate) fn action(&self) -> String {
        match self {
            Route::OpenApi => "GET /v1/openapi.json".into(),
            Route::Models => "GET /v1/models".into(),
            Route::Recall => "POST /v1/recall".into(),
            Route::ListFacts => "GET /v1/facts".into(),
            Route::AddFact => "POST /v1/facts".into(),
            Route::ListReminders => "GET /v1/reminders".into(),
            Route::SetReminder => "POST /v1/reminders".into(),
            Route::CancelReminder(id) => format!("DELETE /v1/reminders/{id}"),
            Route::PostMessage => "POST /v1/messages".into(),
            Route::ChatCompletions => "POST /v1/chat/completions".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Route;
    use http::Method;

    #[test]
    fn paths_and_methods_name_one_operation_each() {
        assert_eq!(Route::of(&Method::GET, "/v1/facts"), Some(Route::ListFacts));
        assert_eq!(Route::of(&Method::POST, "/v1/facts/"), Some(Route::AddFact));
        assert_eq!(Route::of(&Method::DELETE, "/v1/reminders/42"), Some(Route::CancelReminder(42)));
        assert_eq!(Route::of(&Method::DELETE, "/v1/reminders/x"), None);
        assert_eq!(Route::of(&Method::DELETE, "/v1/facts"), None);
        assert_eq!(Route::of(&Method::PUT, "/v1/facts"), None);
        assert_eq!(Route::of(&Method::GET, "/v1/../etc/passwd"), None);
        assert_eq!(Route::of(&Method::POST, "/v1/chat/completions").and_then(|r| r.scope()), Some(crate::connections::Scope::Chat));
    }
}
