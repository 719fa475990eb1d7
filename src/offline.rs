//! Telling "no network" apart from "that server is down": a name that cannot be looked
//! up or a network that cannot be reached means the computer is offline, and the user
//! should hear that, not "nothing is listening" or "stopped after 0 bytes".

/// Why a connection could not be made, in words, from reqwest's error chain.
pub fn connect_failure(url: &str, error: &reqwest::Error) -> String {
    let chain = chain_text(error);
    if looks_offline(&chain) {
        return format!("this computer seems to be offline ({} could not be reached: {})", host_of(url), last_cause(error));
    }
    if error.is_connect() {
        return format!("nothing is listening at {url}");
    }
    last_cause(error)
}

/// Whether an error's text says the network, not the server, is missing.
pub fn looks_offline(text: &str) -> bool {
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
pub fn last_cause(error: &(dyn std::error::Error + 'static)) -> String {
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
        let said = connect_failure(url, &error);
        assert!(said.starts_with("this computer seems to be offline (models.example.invalid could not be reached"), "{said}");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/v1");
        let error = client.get(&url).send().await.unwrap_err();
        assert_eq!(connect_failure(&url, &error), format!("nothing is listening at {url}"));
    }
}
