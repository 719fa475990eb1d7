//! A notes folder the user chose (an Obsidian vault works: Markdown, `[[wikilinks]]`
//! kept as written): `folder` confines every path to it and reads and writes notes,
//! `search` finds notes by words within bounds, `tools` offers them to the model, each behind the permission gate.

pub(crate) mod folder;
pub(crate) mod search;
pub(crate) mod setup;
pub(crate) mod tools;
