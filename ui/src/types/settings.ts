// The core's types for models and memory: providers, usage and budget, facts, plans,
// checkpoints, the profile, recall, meaning, backups and imports.
// Generated from the core's Rust types (./core.ts).
import type { Category, ContextMeter, ItemStatus, Malformed, PlanItem } from "./core";
export type { Category, ContextMeter, PlanItem };
export type PlanStatus = ItemStatus;
export type MalformedLine = Malformed;

export type ProviderKind = "openai" | "anthropic";

export type KeyStorage =
  | { kind: "keychain" }
  | { kind: "session"; reason: string }
  | { kind: "environment"; variable: string }
  | { kind: "none" };

export interface ProviderView {
  id: string;
  kind: ProviderKind;
  base_url: string;
  model: string;
  api_key_env: string | null;
  tools: boolean;
  context_window?: number | null;
  sampling?: Sampling;
  /** As set; null follows the model's name. */
  vision?: boolean | null;
  /** Whether the model is sent images, as the core decided. */
  sees_images?: boolean;
  key: KeyStorage;
}

/** How a model samples; an absent value is the model's default. */
export interface Sampling {
  temperature?: number | null;
  top_p?: number | null;
  repeat_penalty?: number | null;
  max_tokens?: number | null;
}
export interface SamplingLimits {
  temperature: [number, number];
  top_p: [number, number];
  repeat_penalty: [number, number];
  max_tokens: [number, number];
}
/** The local model's sampling and window, with what applies when nothing is set. */
export interface TuningView {
  model: string;
  sampling: Sampling;
  defaults: Sampling;
  context_tokens: number | null;
  context_default: number;
  limits: SamplingLimits;
}

export interface ProviderInput {
  id: string;
  kind: ProviderKind;
  base_url: string;
  model: string;
  api_key?: string | null;
  api_key_env?: string | null;
  tools: boolean;
  context_window?: number | null;
  sampling?: Sampling;
  vision?: boolean | null;
}

export interface SavedProvider {
  provider: ProviderView;
  warning: string | null;
}

export interface ConnectionTest {
  ok: boolean;
  latency_ms: number;
  message: string;
}

export interface ModelTotals {
  provider: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface UsageTotals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number;
  unpriced_calls: number;
  by_model: ModelTotals[];
  by_purpose: PurposeTotals[];
  /** How the model's turns went (absent from an older core). */
  turns?: TurnMeasures;
}

/** The four measures of the model's turns over a period. */
export interface TurnMeasures {
  turns: number;
  truncated: number;
  claimed_without_acting: number;
  reinforced: number;
  plans_finished: number;
  plans_abandoned: number;
}

/** What a model call was for: replies, summaries, the spontaneous decision, extraction. */
export type Purpose = "chat" | "summarize" | "proactive" | "extract";

export interface PurposeTotals {
  purpose: Purpose;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface UsageReport {
  today: UsageTotals;
  all_time: UsageTotals;
}

/** What a budget limit covers, over which period, and how it stands. */
export interface BudgetStanding {
  scope: "all" | "background" | "provider";
  provider?: string;
  period: "day" | "month";
  usd: number;
  spent_usd: number;
  reserved_usd: number;
  /** The limit with today's extra allowance. */
  allowed_usd: number;
}

export interface BudgetView {
  limits: BudgetStanding[];
  /** The share of a limit (in percent) at which the user is warned. */
  warn_percent: number;
  allowance_usd: number;
  currency: string;
  usd_rate: number;
  allow_unpriced: boolean;
}

/** The budget's limits as Settings edits them, in the user's currency; null is no limit. */
export interface BudgetLimits {
  daily: number | null;
  monthly: number | null;
  background_daily: number | null;
  currency: string;
  usd_rate: number;
  allow_unpriced: boolean;
  providers: { id: string; daily: number | null; monthly: number | null }[];
}

export interface Spend {
  cost_usd: number;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  unpriced_calls: number;
}

export interface UsageDay {
  day: string;
  total: Spend;
  by_model: Record<string, Spend>;
  by_purpose: Record<string, Spend>;
}

export interface UsageSpan {
  total: Spend;
  by_model: Record<string, Spend>;
  by_purpose: Record<string, Spend>;
}

/** The last 30 days, a day at a time, and the month's projection. */
export interface UsageHistory {
  days: UsageDay[];
  last_7_days: UsageSpan;
  last_30_days: UsageSpan;
  month_to_date_usd: number;
  month_projection_usd: number;
  currency: string;
  usd_rate: number;
}

export const CATEGORIES: Category[] = ["Health", "Preferences", "Work", "Relationships", "Schedule", "Goals", "General"];

export interface ListedFact {
  line: number;
  category: Category;
  weight: number;
  text: string;
  learned: string;
  confirmed: string;
  /** When a newer fact replaced it (kept as history, not sent as current). */
  superseded?: string | null;
  /** What it is about when that changes (home, job, favourite:band…). */
  slot?: string | null;
}

/** A new Health fact that may contradict an older one: the user decides. */
export interface FactConflict {
  older: ListedFact;
  newer: ListedFact;
}


export interface MemoryReport {
  facts: ListedFact[];
  problems: MalformedLine[];
  conflicts?: FactConflict[];
}

export type SaveOutcome =
  | { action: "new"; category: Category }
  | { action: "reinforced"; category: Category; weight: number }
  | { action: "moved"; from: Category; to: Category; weight: number }
  | { action: "kept_in_health"; requested: Category; weight: number }
  | { action: "superseded"; category: Category; old: string }
  | { action: "needs_confirmation"; category: Category; old: string }
  | { action: "rate_limited" }
  | { action: "said_this_turn"; fact: string }
  | { action: "rejected"; reason: string };



export type CheckpointStatus = "in_progress" | "paused" | "resumed" | "completed" | "abandoned";
export interface Checkpoint {
  id: number;
  conversation_id: number;
  status: CheckpointStatus;
  trigger: "manual" | "auto";
  body: {
    title: string;
    current_work: string;
    completed: string[];
    pending: string[];
    decisions: string[];
    /** What was tried and worked (absent in checkpoints from before it was kept). */
    successful_approaches?: string[];
    failed_approaches: string[];
    user_preferences: string[];
    critical_info: string[];
    blockers?: string[];
    /** Written by Sidecar: the model, the context's size, what the work touched. */
    metadata?: { model: string | null; tokens: number | null; touched: string[] };
  };
  created_at: string;
  updated_at: string;
}

export type ProfileFile = "soul" | "user";
export interface ProfileText {
  text: string;
  version: string;
}

/** The profile as a form: lines and sections of user.md and SOUL.md, read by the core. */
export interface ProfileFields {
  name: string;
  address_as: string;
  about: string;
  answer_style: string;
}
export interface ProfileView {
  fields: ProfileFields;
  user_version: string;
  soul_version: string;
}

export interface RecallHit {
  source: "message" | "fact" | "summary" | "checkpoint";
  id: number;
  label: string;
  snippet: string;
  timestamp: string;
  external_id: string | null;
  /** For a fact a newer one replaced: since when. */
  superseded?: string | null;
  /** Fused score, higher is better. */
  score: number;
  /** A turn shown for context beside a hit rather than found itself. */
  beside: boolean;
}

/** One page of the Memory view's search: the matches that clear the core's relevance cut. */
export interface MemoryPage {
  hits: RecallHit[];
  /** Matches beyond the pages asked for. */
  more: number;
  /** Weaker matches the relevance cut left out (0 once asked for). */
  weaker: number;
  /** Set when only words were searched: why meaning could not be used. */
  words_only: string | null;
}

export type EmbeddingsBackend = "auto" | "local" | "gemma" | "openai" | "off";

export type MeaningState =
  | { state: "idle" }
  | { state: "ready"; model: string }
  | { state: "unavailable"; reason: string }
  | { state: "off" };

export type MeaningStatus = MeaningState & { embedded: number; total: number };

export interface MeaningView {
  backend: EmbeddingsBackend;
  url: string | null;
  model: string | null;
  has_key: boolean;
  status: MeaningStatus;
  built_in: BuiltInEmbedder[];
  /** The built-in embedder "auto" stands for on this computer. */
  automatic: "local" | "gemma";
  /** Automatic runs the light embedder because the one that suits this computer did not start. */
  automatic_stands_in: boolean;
}

/** An embedder that ships with Sidecar, as installed here. */
export interface BuiltInEmbedder {
  backend: EmbeddingsBackend;
  /** What its vectors are stored under, as a ready state names it. */
  model: string;
  name: string;
  licence: string;
  /** null: not installed. */
  size_bytes: number | null;
  memory_mib: number;
  /** The one that suits this computer's memory. */
  recommended: boolean;
}

export interface BackupInfo {
  path: string;
  bytes: number;
  files: number;
  created_at: string;
}

export interface ChatImport {
  from: string;
  conversations: number;
  messages: number;
  problems: [number, string][];
  /** Messages already in Sidecar (imported before): not stored again. */
  already: number;
}
