//! A tool's name as a person reads it, for a tool that gives none of its own: an MCP
//! server's `mcp__locker__locker_code` is "Locker code (locker)".

/// `get_the_time` → "Get the time"; an MCP tool's server name goes in brackets after.
pub fn from_function_name(name: &str) -> String {
    let (server, function) = match name.strip_prefix("mcp__").and_then(|rest| rest.split_once("__")) {
        Some((server, function)) => (Some(server), function),
        None => (None, name),
    };
    let words = function.replace(['_', '-'], " ");
    let mut chars = words.trim().chars();
    let said = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => name.to_string(),
    };
    match server {
        Some(server) => format!("{said} ({server})"),
        None => said,
    }
}

#[cfg(test)]
mod tests {
    use super::from_function_name;

    #[test]
    fn a_function_name_reads_as_words_and_an_mcp_tool_names_its_server() {
        assert_eq!(from_function_name("get_the_time"), "Get the time");
        assert_eq!(from_function_name("mcp__locker__locker_code"), "Locker code (locker)");
        assert_eq!(from_function_name("mcp__files__read-file"), "Read file (files)");
        assert_eq!(from_function_name("_"), "_");
    }
}
