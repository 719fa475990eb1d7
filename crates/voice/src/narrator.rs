//! Spoken replies: a reply is said sentence by sentence as it streams, in the language it
//! is written in. A worker thread synthesizes each sentence and queues it on the
//! speakers; `stop` silences at once and forgets what was still to say (the Stop button,
//! and barge-in: push-to-talk pressed while Sidecar speaks).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use sidecar_domain::Emitter;
use sidecar_domain::Lang;

use crate::events::VoiceEvent;
use crate::sentences::Sentences;
use crate::speaker::Speaker;
use crate::synth::synthesize;
use crate::voicing::Voicing;

/// A sentence to say, for the reply of `generation`.
struct Line {
    text: String,
    lang: Lang,
    generation: u64,
    voicing: Voicing,
}

/// The reply being said.
struct Saying {
    sentences: Sentences,
    /// Told from the first sentence, then kept for the whole reply.
    lang: Option<Lang>,
    fallback: Lang,
    voicing: Voicing,
}

pub struct Narrator {
    lines: Mutex<mpsc::Sender<Line>>,
    speaker: Speaker,
    /// Moves on at every `stop`: lines of an older generation are not said.
    generation: Arc<AtomicU64>,
    saying: Mutex<Option<Saying>>,
    events: Emitter<VoiceEvent>,
}

impl Narrator {
    pub fn new(events: Emitter<VoiceEvent>) -> Self {
        let (lines, queued) = mpsc::channel::<Line>();
        let (speaker, generation) = (Speaker::default(), Arc::new(AtomicU64::new(0)));
        let (worker_speaker, worker_generation, worker_events) = (speaker.clone(), generation.clone(), events.clone());
        std::thread::Builder::new()
            .name("narrator".into())
            .spawn(move || {
                for line in queued {
                    if line.generation != worker_generation.load(Ordering::SeqCst) {
                        continue;
                    }
                    // A `stop` while the sentence is made (the claim check replacing the
                    // answer, a barge-in) must find it unplayed: the speaker checks the
                    // generation under its own lock, which `stop` also takes.
                    let current = || line.generation == worker_generation.load(Ordering::SeqCst);
                    let said = synthesize(&line.text, line.lang, &line.voicing)
                        .and_then(|(samples, rate)| worker_speaker.play(&samples, rate, line.voicing.output.as_deref(), current));
                    if let Err(error) = said {
                        tracing::warn!(%error, "a sentence could not be said");
                        worker_events.publish(VoiceEvent::VoiceSpeaking { on: false, problem: Some(crate::words::problem(line.lang, &error)) });
                        worker_generation.fetch_add(1, Ordering::SeqCst);
                    }
                }
            })
            .expect("the narrator's thread starts");
        Self { lines: Mutex::new(lines), speaker, generation, saying: Mutex::new(None), events }
    }

    /// A reply starts: what follows is said, in its own language (else `fallback`), as
    /// `voicing` asks.
    pub fn begin(&self, fallback: Lang, voicing: Voicing) {
        *self.saying.lock().expect("narrator lock") = Some(Saying { sentences: Sentences::default(), lang: None, fallback, voicing });
    }

    /// More of the reply.
    pub fn delta(&self, text: &str) {
        let mut saying = self.saying.lock().expect("narrator lock");
        let Some(reply) = saying.as_mut() else { return };
        let complete = reply.sentences.push(text);
        self.queue(reply, complete);
    }

    /// The reply is complete: the rest is said, then the speakers tell when they are quiet.
    pub fn end(&self) {
        let Some(mut reply) = self.saying.lock().expect("narrator lock").take() else { return };
        let rest: Vec<String> = reply.sentences.finish().into_iter().collect();
        self.queue(&mut reply, rest);
        let (speaker, generation, events) = (self.speaker.clone(), self.generation.clone(), self.events.clone());
        let now = generation.load(Ordering::SeqCst);
        std::thread::spawn(move || {
            // Until the last sentence has been synthesized, queued and played.
            let until = Instant::now() + Duration::from_secs(600);
            std::thread::sleep(Duration::from_millis(300));
            while speaker.is_speaking() && generation.load(Ordering::SeqCst) == now && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(50));
            }
            if generation.load(Ordering::SeqCst) == now {
                events.publish(VoiceEvent::VoiceSpeaking { on: false, problem: None });
            }
        });
    }

    /// Says `text` now, in `lang`, in place of anything being said.
    pub fn say(&self, text: &str, lang: Lang, voicing: Voicing) {
        self.stop();
        self.begin(lang, voicing);
        self.delta(text);
        self.end();
    }

    /// Silence at once; nothing of this reply is said any more.
    pub fn stop(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.saying.lock().expect("narrator lock").take();
        let was_speaking = self.speaker.is_speaking();
        self.speaker.stop();
        if was_speaking {
            self.events.publish(VoiceEvent::VoiceSpeaking { on: false, problem: None });
        }
    }

    pub fn is_speaking(&self) -> bool {
        self.speaker.is_speaking()
    }

    fn queue(&self, reply: &mut Saying, sentences: Vec<String>) {
        let generation = self.generation.load(Ordering::SeqCst);
        for text in sentences {
            let lang = *reply.lang.get_or_insert_with(|| sidecar_dates::written_in(&text, reply.fallback));
            if !self.speaker.is_speaking() {
                self.events.publish(VoiceEvent::VoiceSpeaking { on: true, problem: None });
            }
            let _ = self.lines.lock().expect("narrator lock").send(Line { text, lang, generation, voicing: reply.voicing.clone() });
        }
    }
}
