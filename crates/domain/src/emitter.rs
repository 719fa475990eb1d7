//! A feature's own events, published without knowing the stream they join. Each feature
//! names its events in its own enum (`reminders::events::ReminderEvent`); the assembly
//! builds the feature's `Emitter` over its one bus, wrapping the feature's event in the
//! `CoreEvent` the faces read. So a feature imports nothing above it to say what happened.

use std::sync::Arc;

pub struct Emitter<E> {
    publish: Arc<dyn Fn(E) + Send + Sync>,
}

impl<E> Clone for Emitter<E> {
    fn clone(&self) -> Self {
        Self { publish: self.publish.clone() }
    }
}

impl<E> std::fmt::Debug for Emitter<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Emitter")
    }
}

impl<E> Emitter<E> {
    pub fn new(publish: impl Fn(E) + Send + Sync + 'static) -> Self {
        Self { publish: Arc::new(publish) }
    }

    /// Says `event` to whoever listens; nobody listening is not an error.
    pub fn publish(&self, event: E) {
        (self.publish)(event)
    }
}

/// Events of one kind, heard without naming the stream they come on: each `subscribe` is a
/// new subscription from that moment. The assembly builds it over its bus, as it builds
/// an [`Emitter`].
pub struct Subscriber<E> {
    subscribe: Arc<dyn Fn() -> tokio::sync::broadcast::Receiver<E> + Send + Sync>,
}

impl<E> Clone for Subscriber<E> {
    fn clone(&self) -> Self {
        Self { subscribe: self.subscribe.clone() }
    }
}

impl<E> std::fmt::Debug for Subscriber<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Subscriber")
    }
}

impl<E> Subscriber<E> {
    pub fn new(subscribe: impl Fn() -> tokio::sync::broadcast::Receiver<E> + Send + Sync + 'static) -> Self {
        Self { subscribe: Arc::new(subscribe) }
    }

    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<E> {
        (self.subscribe)()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn what_is_published_reaches_the_stream_it_was_built_over() {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let stream = heard.clone();
        let emitter = Emitter::new(move |n: u32| stream.lock().unwrap().push(format!("wrapped {n}")));
        emitter.clone().publish(1);
        emitter.publish(2);
        assert_eq!(*heard.lock().unwrap(), ["wrapped 1", "wrapped 2"]);
    }
}
