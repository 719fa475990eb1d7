//! The notes folder as tools: list_folder, read_note, search_notes, create_note,
//! append_content, move_note, create_folder, delete_note. Every one passes the
//! permission gate; the three that only read are marked so, for the Settings switch
//! that lets read-only tools run without asking.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::folder::NotesFolder;
use crate::permissions::Action;
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::untrusted;
use sidecar_tools::Tool;
use sidecar_tools::ToolDefinition;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

/// How many notes a search returns.
const SEARCH_RESULTS: usize = 10;

#[derive(Deserialize, JsonSchema)]
struct AtPath {
    /// Path inside the notes folder, like "Projects/plan.md"; "" for the folder itself.
    #[serde(default)]
    path: String,
}

#[derive(Deserialize, JsonSchema)]
struct Query {
    /// Words the notes must contain.
    query: String,
}

#[derive(Deserialize, JsonSchema)]
struct Writing {
    /// Path of the note inside the notes folder, ending in .md.
    path: String,
    /// Markdown text; [[wikilinks]] are kept as written.
    content: String,
}

#[derive(Deserialize, JsonSchema)]
struct Moving {
    from: String,
    to: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    List,
    Read,
    Search,
    Create,
    Append,
    Move,
    CreateFolder,
    Delete,
}

impl Kind {
    const ALL: [Kind; 8] = [Kind::List, Kind::Read, Kind::Search, Kind::Create, Kind::Append, Kind::Move, Kind::CreateFolder, Kind::Delete];

    fn name(self) -> &'static str {
        match self {
            Kind::List => "list_folder",
            Kind::Read => "read_note",
            Kind::Search => "search_notes",
            Kind::Create => "create_note",
            Kind::Append => "append_content",
            Kind::Move => "move_note",
            Kind::CreateFolder => "create_folder",
            Kind::Delete => "delete_note",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Kind::List => "List the notes and folders in a folder of the user's notes.",
            Kind::Read => "Read one of the user's notes.",
            Kind::Search => "Find the user's notes that contain some words; returns paths and matching lines, and names any note it did not read (too large, or past what one search reads).",
            Kind::Create => "Create a new note in the user's notes folder (fails if it exists).",
            Kind::Append => "Add text at the end of one of the user's notes.",
            Kind::Move => "Move or rename a note or folder inside the user's notes folder.",
            Kind::CreateFolder => "Create a folder in the user's notes folder.",
            Kind::Delete => "Move one of the user's notes to the system trash.",
        }
    }

    fn title(self, lang: sidecar_domain::Lang) -> &'static str {
        let (en, es) = match self {
            Kind::List => ("List notes", "Ver las notas"),
            Kind::Read => ("Read notes", "Leer notas"),
            Kind::Search => ("Search notes", "Buscar en las notas"),
            Kind::Create => ("Create notes", "Crear notas"),
            Kind::Append => ("Add to notes", "Añadir a notas"),
            Kind::Move => ("Move notes", "Mover notas"),
            Kind::CreateFolder => ("Create note folders", "Crear carpetas de notas"),
            Kind::Delete => ("Delete notes (to the trash)", "Borrar notas (a la papelera)"),
        };
        lang.pick(en, es)
    }

    fn schema(self) -> Value {
        match self {
            Kind::List | Kind::Read | Kind::CreateFolder | Kind::Delete => schema_of::<AtPath>(),
            Kind::Search => schema_of::<Query>(),
            Kind::Create | Kind::Append => schema_of::<Writing>(),
            Kind::Move => schema_of::<Moving>(),
        }
    }

    fn reads_only(self) -> bool {
        matches!(self, Kind::List | Kind::Read | Kind::Search)
    }
}

pub(crate) struct NoteTool {
    kind: Kind,
    folder: Arc<NotesFolder>,
    definition: ToolDefinition,
}

/// The eight tools over one folder.
pub fn tools(folder: Arc<NotesFolder>) -> Vec<Arc<dyn Tool>> {
    Kind::ALL
        .into_iter()
        .map(|kind| {
            let definition =
                ToolDefinition { name: kind.name().into(), description: kind.description().into(), input_schema: kind.schema(), read_only: kind.reads_only() };
            Arc::new(NoteTool { kind, folder: folder.clone(), definition }) as Arc<dyn Tool>
        })
        .collect()
}

impl Tool for NoteTool {
    fn name(&self) -> &str {
        &self.definition.name
    }

    fn description(&self) -> &str {
        &self.definition.description
    }

    fn title(&self, lang: sidecar_domain::Lang) -> String {
        self.kind.title(lang).into()
    }

    fn parameters(&self) -> Value {
        self.definition.input_schema.clone()
    }

    fn action(&self) -> Option<Action> {
        Some(Action {
            server: "notes".into(),
            identity: self.folder.root().display().to_string(),
            definition: self.definition.clone(),
            called_as: self.definition.name.clone(),
            asking: None,
        })
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let (kind, folder) = (self.kind, self.folder.clone());
            // File work is blocking: off the runtime's threads.
            tokio::task::spawn_blocking(move || perform(kind, &folder, arguments)).await.map_err(|e| ToolError::Failed(e.to_string()))?
        })
    }
}

fn perform(kind: Kind, folder: &NotesFolder, arguments: Value) -> Result<String, ToolError> {
    let failed = |e: super::folder::NotesError| ToolError::Failed(e.to_string());
    let done = |what: &str, path: String| serde_json::json!({ "done": what, "path": path }).to_string();
    match kind {
        Kind::List => {
            let at: AtPath = parse_arguments(arguments)?;
            Ok(serde_json::to_string(&folder.list(&at.path).map_err(failed)?).expect("entries serialize"))
        }
        Kind::Read => {
            let at: AtPath = parse_arguments(arguments)?;
            Ok(untrusted(&format!("note:{}", at.path), &folder.read(&at.path).map_err(failed)?))
        }
        Kind::Search => {
            let query: Query = parse_arguments(arguments)?;
            let found = super::search::search(folder, &query.query, SEARCH_RESULTS).map_err(failed)?;
            Ok(untrusted("notes search", &serde_json::to_string(&found).expect("results serialize")))
        }
        Kind::Create => {
            let note: Writing = parse_arguments(arguments)?;
            Ok(done("created", folder.create(&note.path, &note.content).map_err(failed)?))
        }
        Kind::Append => {
            let note: Writing = parse_arguments(arguments)?;
            Ok(done("appended", folder.append(&note.path, &note.content).map_err(failed)?))
        }
        Kind::Move => {
            let moving: Moving = parse_arguments(arguments)?;
            Ok(done("moved", folder.rename(&moving.from, &moving.to).map_err(failed)?))
        }
        Kind::CreateFolder => {
            let at: AtPath = parse_arguments(arguments)?;
            Ok(done("created folder", folder.create_folder(&at.path).map_err(failed)?))
        }
        Kind::Delete => {
            let at: AtPath = parse_arguments(arguments)?;
            Ok(done("moved to the trash", folder.delete(&at.path).map_err(failed)?))
        }
    }
}
