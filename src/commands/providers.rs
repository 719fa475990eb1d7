//! The window's providers commands (`commands` says how the table serves them).

use crate::commands::{blocking, commands, CommandError, SaidBy};
use crate::companion::UsageReport;
use sidecar_llm::ConnectionTest;
use sidecar_llm::ProviderInput;
use sidecar_llm::ProviderView;
use sidecar_llm::SavedProvider;

commands! {
    async fn list_providers(core) -> Result<Vec<ProviderView>, CommandError> {
        Ok(blocking(&core, |c| c.provider_admin().providers()).await)
    }

    async fn save_provider(core, input: ProviderInput) -> Result<SavedProvider, CommandError> {
        blocking(&core, move |c| c.provider_admin().save_provider(input)).await.said(&core)
    }

    async fn remove_provider(core, id: String) -> Result<Option<String>, CommandError> {
        blocking(&core, move |c| c.provider_admin().remove_provider(&id)).await.said(&core)
    }

    async fn order_providers(core, ids: Vec<String>) -> Result<Option<String>, CommandError> {
        blocking(&core, move |c| c.provider_admin().order_providers(&ids)).await.said(&core)
    }

    async fn test_provider(core, input: ProviderInput) -> Result<ConnectionTest, CommandError> {
        Ok(core.provider_admin().test_provider(input).await)
    }

    async fn usage_report(core) -> Result<UsageReport, CommandError> {
        core.usage_report().await.said(&core)
    }

    async fn usage_history(core) -> Result<sidecar_llm::UsageHistory, CommandError> {
        core.budget().usage_history().await.said(&core)
    }

    async fn budget_view(core) -> Result<sidecar_llm::BudgetView, CommandError> {
        core.budget().view().await.said(&core)
    }

    /// The one click past a limit: `amount` more today, in the user's currency.
    async fn allow_more_today(core, amount: f64) -> Result<sidecar_llm::BudgetView, CommandError> {
        core.budget().allow_more_today(amount).await.said(&core)
    }

    async fn budget_limits(core) -> Result<sidecar_llm::LimitsForm, CommandError> {
        Ok(core.budget().limits())
    }

    async fn save_budget_limits(core, form: sidecar_llm::LimitsForm) -> Result<sidecar_llm::BudgetView, CommandError> {
        core.budget().save_limits(&form).await.said(&core)
    }

    async fn pinned_model(core) -> Result<Option<String>, CommandError> {
        core.conversation().pinned_provider().await.said(&core)
    }

    async fn pin_model(core, id: Option<String>) -> Result<(), CommandError> {
        core.conversation().pin_provider(id.as_deref()).await.said(&core)
    }
}
