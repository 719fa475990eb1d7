//! Telling "no network" apart from "that server is down": a name that cannot be looked
//! up or a network that cannot be reached means the computer is offline, and the user
//! should hear that, not "nothing is listening" or "stopped after 0 bytes".

/// Why a connection could not be made, read once from reqwest's error chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectFailure {
    /// No network: the words say so.
    Offline(String),
    /// The network is there; this is what failed ("nothing is listening at …", or the cause).
    Other(String),
}

impl ConnectFailure {
    pub fn read(url: &str, error: &reqwest::Error) -> Self {
        if looks_offline(&chain_text(error)) {
            Self::Offline(offline_words(&host_of(url), &last_cause(error)))
        } else if error.is_connect() {
            Self::Other(format!("nothing is listening at {url}"))
        } else {
            Self::Other(last_cause(error))
        }
    }
}

/// "This computer seems to be offline", with the host that could not be reached and why.
pub fn offline_words(host: &str, cause: &str) -> String {
    format!("this computer seems to be offline ({host} could not be reached: {cause})")
}

/// Whether an error's text says the network, not the server, is missing.
fn looks_offline(text: &str) -> bool {
    let text = text.to_lowercase();
    [
        "dns error",
        "failed to lookup address",
        "name or service not known",
        "temporary failure in name resolution",
        "no address associated with hostname",
        "nodename nor servname",
        "network is unreachable",
        "no route to host",
    ]
    .iter()
    .any(|sign| text.contains(sign))
}

/// The innermost cause: reqwest nests the telling part (refused, DNS) in its chain.
pub(crate) fn last_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut detail = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        detail = inner.to_string();
        source = inner.source();
    }
    detail
}

fn chain_text(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

fn host_of(url: &str) -> String {
    reqwest::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_string)).unwrap_or_else(|| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_name_that_cannot_be_looked_up_is_offline_and_a_closed_port_is_not() {
        let client = reqwest::Client::new();
        // .invalid never resolves (RFC 6761): what a computer with no network sees for any name.
        let url = "https://models.example.invalid/v1/models";
        let error = client.get(url).send().await.unwrap_err();
        let said = ConnectFailure::read(url, &error);
        assert!(
            matches!(&said, ConnectFailure::Offline(w) if w.starts_with("this computer seems to be offline (models.example.invalid could not be reached")),
            "{said:?}"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/v1");
        let error = client.get(&url).send().await.unwrap_err();
        assert_eq!(ConnectFailure::read(&url, &error), ConnectFailure::Other(format!("nothing is listening at {url}")));
    }
}
