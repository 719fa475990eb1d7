// The core's types for models and memory: providers, usage and budget, facts, plans,
// checkpoints, the profile, recall, meaning, backups and imports.
// Generated from the core's Rust types (./core.ts, `make ui-types`); this file names
// them as the UI knows them.
import type { Category, ContextMeter, Day, ItemStatus, LimitsForm, Malformed, PlanItem, Span, Standing } from "./core";
import type { AboutSomeone, BackupInfo, BackupSeal, BroughtFact, BroughtSaved, BudgetView, BuiltInEmbedder, ChatImport, Checkpoint, CheckpointStatus, ChosenFact, ConnectionTest, DatabaseEncryption, EmbeddingsBackend, FactConflict, FactOrigin, ForgetChosen, ForgottenAbout, HeldInBackups, Injection, KeptFact, KeyStorage, KnowledgeFile, ListedFact, LockView, MeaningStatus, MeaningView, MemoryPage, MemoryReport, MessageMention, ModelTotals, NoteMention, ProfileFields, ProfileFile, ProfileText, ProfileView, Proposal, ProviderInput, ProviderKind, ProviderView, PurposeTotals, RecallHit, Review, Sampling, SamplingLimits, SaveOutcome, SavedProvider, Spend, SuspectLine, TuningView, TurnMeasures, UsageHistory, UsageReport, UsageTotals } from "./core";
export type { AboutSomeone, BackupInfo, BackupSeal, BroughtFact, BroughtSaved, BudgetView, BuiltInEmbedder, ChatImport, Checkpoint, CheckpointStatus, ChosenFact, ConnectionTest, DatabaseEncryption, EmbeddingsBackend, FactConflict, FactOrigin, ForgetChosen, ForgottenAbout, HeldInBackups, Injection, KeptFact, KeyStorage, KnowledgeFile, ListedFact, LockView, MeaningStatus, MeaningView, MemoryPage, MemoryReport, MessageMention, ModelTotals, NoteMention, ProfileFields, ProfileFile, ProfileText, ProfileView, Proposal, ProviderInput, ProviderKind, ProviderView, PurposeTotals, RecallHit, Review, Sampling, SamplingLimits, SaveOutcome, SavedProvider, Spend, SuspectLine, TuningView, TurnMeasures, UsageHistory, UsageReport, UsageTotals };
export type { Category, ContextMeter, PlanItem };
export type PlanStatus = ItemStatus;
export type MalformedLine = Malformed;

/** What a budget limit covers, over which period, and how it stands. */
export type BudgetStanding = Standing;
/** The budget's limits as Settings edits them, in the user's currency; null is no limit. */
export type BudgetLimits = LimitsForm;
/** One day, or the whole span, of the usage history. */
export type UsageSpan = Span;
export type UsageDay = Day;

export const CATEGORIES: Category[] = ["Health", "Preferences", "Work", "Relationships", "Schedule", "Goals", "General"];
