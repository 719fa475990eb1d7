"""The budget in the real app: a reply that crosses today's limit finishes, the chat says
the limit is spent with one click to allow more, and Usage shows each limit, the chart of
the last days and the month's projection."""
from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply


def test_a_limit_crossed_is_said_in_the_chat_and_usage_shows_the_budget_and_the_chart(desktop, tmp_path):
    # $10 per million tokens in, $1,000 out: a reply billed 2,000 in and 60 out costs
    # $0.08; its worst case (the prompt in, 20 tokens out) fits the $0.075 limit.
    llm = ScriptedLlm([text_reply("Here is ", "the answer.", usage=(2000, 60)), text_reply("Again.", usage=(2000, 60))])
    config = tmp_path / "settings.toml"
    config.write_text(
        "[[providers]]\nid = \"paid\"\nbase_url = \"%s\"\nmodel = \"pricey-model\"\n"
        "[llm]\nmax_retries = 0\nmax_tokens = 20\n[user]\ntimezone = \"Europe/Madrid\"\n"
        "[prices.\"pricey-model\"]\ninput_per_mtok = 10.0\noutput_per_mtok = 1000.0\n"
        "[budget]\ndaily_usd = 0.075\nmonthly_usd = 5.0\ncurrency = \"EUR\"\nusd_rate = 0.9\n" % llm.base_url
    )
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        composer = session.find("[data-testid=composer]")
        session.send_keys(composer, "What is the answer?\ue007")
        session.wait_for("[data-testid=message-assistant]", 30)
        assert session.texts("[data-testid=message-assistant] .content") == ["Here is the answer."]
        banner = session.wait_for("[data-testid=budget-banner]", 10)
        text = session.text(banner)
        assert "Today's budget is spent" in text and "EUR" in text, text
        desktop.screenshot("budget-banner")
        session.click(session.find("[data-testid=budget-allow]"))
        wait_until(lambda: not session.find_all("[data-testid=budget-banner]"), 10, "the banner stayed")

        session.click(session.find("[data-testid=nav-usage]"))
        limits = session.wait_for("[data-testid=budget-limit]", 10)
        first = session.text(limits)
        assert "Today: all calls" in first and "0.07 EUR of 0.09 EUR" in first, first
        session.wait_for("[data-testid=usage-chart]", 10)
        projection = session.texts("[data-testid=usage-projection]")[0]
        assert projection.startswith("This month so far: 0.07 EUR"), projection
        desktop.screenshot("usage-budget")
        session.script("document.querySelector('[data-testid=usage-chart]').scrollIntoView()")
        desktop.screenshot("usage-chart")
        assert len(llm.requests) == 1
    finally:
        desktop.close(session)
        llm.close()
