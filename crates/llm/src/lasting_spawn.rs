//! Starts a child process that cannot outlive this one, even when this one is killed.
//!
//! On Linux the child asks the kernel to kill it when its parent goes
//! (`PR_SET_PDEATHSIG`). The kernel ties that to the thread that started the child, not
//! the process, and a runtime's threads can end before the app does, so every such
//! child is started from one thread that lasts as long as the process. Elsewhere
//! `kill_on_drop` stops the child on any orderly exit.

use std::sync::mpsc;
use std::sync::OnceLock;

use tokio::process::{Child, Command};

type Request = (Command, tokio::runtime::Handle, tokio::sync::oneshot::Sender<std::io::Result<Child>>);

/// Spawns `command` (with `kill_on_drop`) so that it dies with this process.
pub(crate) async fn spawn(mut command: Command) -> std::io::Result<Child> {
    command.kill_on_drop(true);
    die_with_parent(&mut command);
    let (reply, answer) = tokio::sync::oneshot::channel();
    let request = (command, tokio::runtime::Handle::current(), reply);
    spawner().send(request).map_err(|_| std::io::Error::other("the spawning thread ended"))?;
    answer.await.map_err(|_| std::io::Error::other("the spawning thread ended"))?
}

fn spawner() -> &'static mpsc::Sender<Request> {
    static SPAWNER: OnceLock<mpsc::Sender<Request>> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (send, receive) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("sidecar-spawner".into())
            .spawn(move || {
                for (mut command, runtime, reply) in receive {
                    // The child's exit is reaped by the runtime that asked for it.
                    let _entered = runtime.enter();
                    let _ = reply.send(command.spawn());
                }
            })
            .expect("a thread can be started");
        send
    })
}

#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    // SAFETY: prctl is async-signal-safe and touches only the calling (child) process.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}
