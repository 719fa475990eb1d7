//! The core's integration tests, in one binary so `make test` links the crate once.

mod support;
mod agent_loop;
mod anthropic;
mod checkpoints;
mod cli;
mod companion;
mod context_replay;
mod crash_write;
mod dates;
mod facts_bugs;
mod ics;
mod intents;
mod local_model;
mod logs;
mod memory;
mod openai_stream;
mod proactive;
mod provider_admin;
mod queue;
mod reminders;
mod services;
mod settings_fuzz;
mod sources;
mod store;
mod tools;
mod turn_machine;
