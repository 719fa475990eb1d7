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
        wait_until(lambda: not session.find_all("[data-testid=budget-banner]"), 30, "the banner stayed")

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


def test_limits_set_in_settings_go_to_the_file_in_dollars_and_hold_the_next_reply(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("Fine.", usage=(2000, 60))])
    config = tmp_path / "settings.toml"
    config.write_text(
        "# kept as it is\n[[providers]]\nid = \"paid\"\nbase_url = \"%s\"\nmodel = \"pricey-model\"\n"
        "[llm]\nmax_retries = 0\nmax_tokens = 20\n"
        "[prices.\"pricey-model\"]\ninput_per_mtok = 10.0\noutput_per_mtok = 1000.0\n" % llm.base_url
    )
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        session.click(session.find("[data-testid=nav-usage]"))
        session.click(session.wait_for("[data-testid=budget-set-limits]", 10))
        session.wait_for("[data-testid=budget-form]", 10)
        # Backspaces over what is there, then the new text.
        session.send_keys(session.find("[data-testid=budget-currency]"), "\ue003" * 6 + "EUR")
        session.send_keys(session.find("[data-testid=budget-rate]"), "\ue003" * 6 + "0.5")
        session.send_keys(session.find("[data-testid=budget-monthly]"), "10")
        # 0.01 EUR a day for the paid provider: less than one reply's worst case.
        session.send_keys(session.find("[data-testid=budget-paid\\.daily]"), "0,01")
        desktop.screenshot("settings-budget")
        session.tap("[data-testid=budget-save]")
        session.wait_for("[data-testid=budget-saved]", 10)
        saved = config.read_text()
        assert saved.startswith("# kept as it is") and "monthly_usd = 20.0" in saved and "daily_usd = 0.02" in saved, saved
        assert 'currency = "EUR"' in saved, saved

        session.click(session.find("[data-testid=nav-chat]"))
        session.send_keys(session.wait_for("[data-testid=composer]"), "Hello?\ue007")
        # The offline model answers, and the reply says why.
        wait_until(lambda: "budget for paid has too little left for this reply" in " ".join(session.texts("[data-testid=message-assistant]")), 120,
                   "the reply was not held back by the new limit")
        desktop.screenshot("budget-held-reply")
        assert not llm.requests, "nothing was sent to the paid model"
    finally:
        desktop.close(session)
        llm.close()
