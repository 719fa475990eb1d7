//! A closed output pipe (`sidecar connections activity NAME | head`) ends the program
//! quietly, as it ends `seq` or `cat`: `println!` panics when its pipe is gone, and a
//! panic would print a backtrace and exit 101. The exit status is the one a shell shows
//! for a program ended by SIGPIPE. Sockets keep Rust's SIGPIPE-ignoring default, so the
//! daemon and `mcp serve` are unaffected.

/// 128 + SIGPIPE.
const CLOSED_PIPE_EXIT: i32 = 141;

fn is_closed_pipe(message: &str) -> bool {
    message.starts_with("failed printing to std") && message.contains("Broken pipe")
}

/// Installs the hook; other panics go to the default one.
pub(crate) fn end_quietly_when_closed() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload.downcast_ref::<String>().map(String::as_str).or_else(|| payload.downcast_ref::<&str>().copied()).unwrap_or_default();
        if is_closed_pipe(message) {
            std::process::exit(CLOSED_PIPE_EXIT);
        }
        default(info);
    }));
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_a_closed_pipe_is_quiet() {
        assert!(super::is_closed_pipe("failed printing to stdout: Broken pipe (os error 32)"));
        assert!(!super::is_closed_pipe("index out of bounds"));
    }
}
