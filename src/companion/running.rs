//! `Companion::run`: every background loop of the core, started in one place. A face
//! (the desktop shell, `sidecar daemon`) hands over what only it has (its sinks, what a
//! click on a notification opens, where updates come from) and starts nothing else;
//! [`Running::stop`] ends them.

use std::sync::Arc;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::Companion;
use sidecar_desktop_features::PackageFormat;
use sidecar_desktop_features::UpdateSource;
use sidecar_outbox::Sink;
use sidecar_proactive::NotificationSink;
use sidecar_serve::McpEndpoint;

/// What a face gives the companion when it starts it.
pub struct Face {
    /// The face's own places for Sidecar's messages (the tray, the terminal), beside
    /// the chat and the notifications the core has; one of the same kind replaces the
    /// core's.
    pub sinks: Vec<Arc<dyn Sink>>,
    /// What a click on a notification opens (the window, on that message).
    pub on_open: Arc<dyn Fn(Option<i64>) + Send + Sync>,
    /// Where other programs reach Sidecar; the face keeps it to switch it from Settings.
    pub endpoint: Arc<McpEndpoint>,
    /// Where updates come from, when this face can install them (the desktop package).
    pub updates: Option<(Arc<dyn UpdateSource>, Option<PackageFormat>)>,
    /// Start the chat model now, so the first message does not wait for it (a window
    /// someone is about to type in).
    pub warm_model: bool,
    /// The window's command table, which the link serves to other devices (the app and
    /// the daemon give `sidecar::commands::dispatch`).
    pub commands: Option<super::devices::Dispatch>,
    /// A window shows permission questions as cards (the app); without one, they are
    /// asked on the attached devices while one is (the daemon), else no one is asked.
    pub window: bool,
}

impl Face {
    /// A face with no window: nothing to open, no updates, the model started on demand.
    pub fn headless(sinks: Vec<Arc<dyn Sink>>) -> Self {
        Face { sinks, on_open: Arc::new(|_| {}), endpoint: Arc::default(), updates: None, warm_model: false, commands: None, window: false }
    }
}

/// Whether this process delivers reminders and speaks first for its data folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    Here,
    /// Another Sidecar process (the app, a daemon) delivers for this data folder.
    Elsewhere,
    /// The scheduler could not start; the reason is the system's.
    Failed(String),
}

/// The loops a [`Companion::run`] started.
pub struct Running {
    pub delivery: Delivery,
    endpoint: Arc<McpEndpoint>,
    devices: Arc<super::devices::DeviceLink>,
    cancel: CancellationToken,
    deliveries: Option<JoinHandle<()>>,
    loops: Vec<JoinHandle<()>>,
}

impl Running {
    /// Ends every loop: the deliveries finish what they hold (the scheduler's lock, the
    /// phone channels); the others, which keep nothing half done, stop where they are.
    pub async fn stop(self) {
        self.cancel.cancel();
        if let Some(deliveries) = self.deliveries {
            let _ = deliveries.await;
        }
        for task in self.loops {
            task.abort();
        }
        self.endpoint.stop();
        self.devices.stop().await;
    }
}

impl Companion {
    /// Starts every background loop: reminders and spontaneous messages with the phone
    /// channels (when no other process delivers for this data folder), the MCP servers
    /// Sidecar uses, the endpoint it serves on when Settings has it on, the knowledge
    /// watch, recall's indexer, daily backups, the silent-connections watch, the daily
    /// update look (when the face can install) and, if asked, the model's warm-up.
    pub async fn run(self: &Arc<Self>, face: Face) -> Running {
        if let Err(error) = self.mcp.reload() {
            tracing::warn!(%error, "the MCP servers were not started");
        }
        let cancel = CancellationToken::new();
        self.attach_saved_home(face.on_open.clone());
        let (delivery, deliveries) = match self.deliveries(face.on_open, cancel.clone()) {
            Ok(Some(task)) => (Delivery::Here, Some(tokio::spawn(task))),
            Ok(None) => {
                tracing::warn!("another Sidecar process delivers reminders for this data folder");
                (Delivery::Elsewhere, None)
            }
            Err(error) => {
                tracing::warn!(%error, "could not start the reminder scheduler");
                (Delivery::Failed(error.to_string()), None)
            }
        };
        // The window's process (or the daemon that delivers) starts with no incognito
        // chat: one there now was left open by a crash. It forgets the one open at its end.
        if face.window || delivery == Delivery::Here {
            self.runs_loops.store(true, std::sync::atomic::Ordering::SeqCst);
            self.forget_incognito().await;
        }
        // After the core's own (the notifications): a face's sink of the same kind is
        // the one that shows.
        for sink in face.sinks {
            self.proactive.router().register(sink);
        }
        self.start_endpoint_if_on(&face.endpoint).await;
        if face.window {
            self.permissions.set_asker(self.questions.clone());
        }
        if let Some(dispatch) = face.commands {
            self.devices.serve(dispatch);
            self.proactive.router().register(Arc::new(super::devices_sink::DevicesSink::new(&self.devices)));
            if !face.window {
                self.permissions.set_asker(Arc::new(super::devices_sink::DevicesAsker::new(&self.devices, &self.questions)));
            }
        }
        self.start_devices_if_on().await;
        let connections = sidecar_serve::watch(
            self.hosting().connections.clone(),
            self.events.emitter(crate::events::CoreEvent::Connections),
            self.lang,
            sidecar_serve::LOOK_EVERY,
        );
        let mut loops = vec![];
        if delivery == Delivery::Here {
            // Only the process that delivers runs the tasks (the runs' records keep a
            // second one from doubling a run all the same).
            loops.push(tokio::spawn(self.runner.clone().run(cancel.clone())));
            // And sends what waits for the phones: two senders could each send a row once.
            loops.push(tokio::spawn(self.proactive.router().clone().deliver_waiting_every(OUTBOX_LOOK)));
        }
        loops.extend([
            tokio::spawn(self.watch_knowledge(sidecar_memory::POLL_INTERVAL)),
            tokio::spawn(self.meaning().clone().run()),
            tokio::spawn(self.data().clone().run_daily_backups()),
            tokio::spawn(self.clone().run_tidy()),
            tokio::spawn(connections),
            tokio::spawn(self.clone().free_idle_speech()),
            tokio::spawn(self.clone().speak_replies()),
            tokio::spawn(self.clone().sync_calendars()),
            tokio::spawn(self.clone().watch_mail()),
            tokio::spawn(self.clone().watch_the_desk(DESK_LOOK)),
        ]);
        if let Some((source, format)) = face.updates {
            self.updates().attach(source, format);
            loops.push(tokio::spawn(self.updates().clone().run_daily()));
        }
        if face.warm_model {
            let companion = self.clone();
            loops.push(tokio::spawn(async move {
                if let Err(error) = companion.warm_up().await {
                    tracing::warn!(%error, "chat model not available yet");
                }
            }));
        }
        Running { delivery, endpoint: face.endpoint, devices: self.devices.clone(), cancel, deliveries, loops }
    }

    /// Input anywhere on the desktop in the last look counts as the user at the desk, not
    /// only the window in focus (DT-3): a user working in another program is not away,
    /// and phones keep quiet. Where the idle time is unknown, the window's focus alone says.
    pub async fn watch_the_desk(self: Arc<Self>, every: std::time::Duration) {
        loop {
            if self.computer.state().await.away_for(every) == Some(false) {
                if let Err(error) = self.proactive().desk_active().await {
                    tracing::warn!(%error, "could not note the desk as active");
                }
            }
            tokio::time::sleep(every).await;
        }
    }

    /// The computer's state now, and what waits for it.
    pub async fn computer_state(&self) -> ComputerView {
        let state = self.computer.state().await;
        let saving_power = state.saving_power();
        let said = saving_power.then(|| sidecar_computer::waits_for_power(self.preferences().lang(), state.power.and_then(|p| p.percent)));
        ComputerView { state, saving_power, said }
    }

    /// Frees the speech model's memory (~190 MB) once nobody has spoken for a while; the
    /// next recording loads it again in a fraction of a second.
    async fn free_idle_speech(self: Arc<Self>) {
        loop {
            tokio::time::sleep(sidecar_voice::IDLE_UNLOAD / 4).await;
            if !self.talk.is_listening() && self.speech.unload_if_idle(sidecar_voice::IDLE_UNLOAD) {
                tracing::info!("speech model unloaded after being idle");
            }
        }
    }

    /// Shows proactive messages as OS notifications (a click calls `on_open`; a snooze
    /// button goes to the reminder service) and, unless another Sidecar process already
    /// does it for this data dir, returns the task that delivers reminders, runs the
    /// spontaneous loop and the phone channels until `cancel`. Spawn it on the
    /// caller's runtime; it holds the data dir's scheduler lock while it runs.
    pub fn deliveries(
        &self,
        on_open: Arc<dyn Fn(Option<i64>) + Send + Sync>,
        cancel: CancellationToken,
    ) -> std::io::Result<Option<impl std::future::Future<Output = ()> + Send + 'static>> {
        // Called off any runtime (the app's main thread): the sink runs what it returns.
        let (proactive, channel) = (Arc::downgrade(&self.proactive), self.channel);
        let on_signal = Arc::new(move |message_id: Option<i64>, signal| -> futures_util::future::BoxFuture<'static, ()> {
            let proactive = proactive.clone();
            Box::pin(async move {
                let Some(proactive) = proactive.upgrade() else { return };
                if let Err(error) = proactive.feedback_on(message_id, channel, signal).await {
                    tracing::debug!(%error, "a notification's answer taught nothing");
                }
            })
        });
        self.proactive.router().register(Arc::new(NotificationSink {
            notifier: self.notifier.clone(),
            channel: self.channel,
            lang: self.lang,
            reminders: self.reminders.clone(),
            on_open,
            on_signal,
        }));
        let Some(scheduler) = self.reminders.scheduler()? else {
            return Ok(None);
        };
        let spontaneous = self.proactive.spontaneous_loop(cancel.clone());
        let channels = self.channels.clone();
        // The loop ends on `cancel`; the scheduler (and its lock) and the channels go
        // with it.
        Ok(Some(async move {
            channels.start();
            tokio::select! {
                _ = scheduler => {}
                _ = spontaneous => {}
                _ = channels.watch(cancel) => {}
            }
            channels.stop();
        }))
    }
}

/// How often the desk is looked at for input elsewhere on the desktop.
const DESK_LOOK: std::time::Duration = std::time::Duration::from_secs(60);
/// How often what waits for a phone is offered to it again.
const OUTBOX_LOOK: std::time::Duration = std::time::Duration::from_secs(15);

/// The computer as Settings and Tasks show it.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct ComputerView {
    #[serde(flatten)]
    pub state: sidecar_computer::ComputerState,
    /// On a low battery, not charging: background work waits.
    pub saving_power: bool,
    /// What waits, in the user's language, while saving power.
    pub said: Option<String>,
}
