//! Voice notes on Telegram: a paired chat's note heard and answered (as a voice note when
//! asked), a stranger's never fetched, a long or damaged one refused with words.

use std::time::{Duration, Instant};

use crate::support::bot_api::FakeBotApi;
use crate::telegram::{echo_model, open, open_with, ME, STRANGER};
use sidecar_proactive::Channel;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paired_chats_voice_note_is_heard_and_answered_and_a_strangers_is_never_fetched() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let runtime = format!("[local_model]\nruntime = {:?}\n", crate::support::runtime());
    let core = open_with(dir.path(), &model, &bot, &[ME], &runtime).await;

    // The paired chat's note reaches the model as words, is answered, and joins the
    // conversation as what the user said on Telegram.
    bot.send_voice(ME, crate::support::voice_note("0930"), 3);
    let said = bot.wait_for_sent(ME, 1, Duration::from_secs(60)).await;
    assert_eq!(said.len(), 1, "no answer to the voice note");
    let heard = said[0].strip_prefix("re: ").unwrap_or_else(|| panic!("not the model's answer: {said:?}"));
    let (errors, words) = sidecar_voice::word_errors("he might even have been made amiable himself", heard);
    assert!(errors <= 1, "{errors}/{words} words wrong: heard {heard:?}");
    let history = core.conversation().history(10).await.unwrap();
    let from_phone = history.iter().find(|m| m.content == heard).expect("the note's words are in the history");
    assert_eq!(from_phone.channel, Some(Channel::Telegram));
    assert_eq!(model.request_count(), 1);

    // A stranger's note is answered with the private notice; it is never downloaded.
    bot.send_voice(STRANGER, crate::support::voice_note("0880"), 3);
    let said = bot.wait_for_sent(STRANGER, 1, Duration::from_secs(20)).await;
    assert!(said[0].contains("private Sidecar") || said[0].contains("Sidecar privado"), "{said:?}");
    assert_eq!(bot.calls("getFile").len(), 1, "only the paired chat's note was asked for");

    // Past ten minutes, the note is refused before it is fetched, and the chat told why.
    bot.send_voice(ME, crate::support::voice_note("0880"), 601);
    let said = bot.wait_for_sent(ME, 2, Duration::from_secs(20)).await;
    assert!(said[1].contains("10 minutes") || said[1].contains("10 minutos"), "{said:?}");
    assert_eq!(bot.calls("getFile").len(), 1);

    // A damaged recording: the chat is asked to record it again; the model hears nothing.
    let mut damaged = crate::support::voice_note("0880");
    damaged.truncate(200);
    bot.send_voice(ME, damaged, 3);
    let said = bot.wait_for_sent(ME, 3, Duration::from_secs(20)).await;
    assert!(said[2].contains("damaged") || said[2].contains("dañada"), "{said:?}");
    // Then a typed message still goes through, in order.
    bot.say(ME, "¿sigues ahí?");
    let said = bot.wait_for_sent(ME, 4, Duration::from_secs(20)).await;
    assert_eq!(said[3], "re: ¿sigues ahí?");
    assert_eq!(model.request_count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_asked_for_as_a_voice_note_comes_back_as_one() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let _core = open(dir.path(), &model, &bot, &[ME]).await;
    bot.say(ME, "Reply with a voice note: how is the weather in Madrid today?");
    let until = Instant::now() + Duration::from_secs(30);
    while bot.voices_sent_to(ME).is_empty() && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let notes = bot.voices_sent_to(ME);
    assert_eq!(notes.len(), 1, "no voice note; texts: {:?}", bot.sent_to(ME));
    let heard = sidecar_voice::Audio::decode(&notes[0]).expect("an OGG/Opus voice note");
    assert!(heard.seconds() > 2.0, "{} s", heard.seconds());
    assert!(bot.sent_to(ME).is_empty(), "the answer went as a voice note, not also as text");
    // A question that asks nothing of the kind is answered as text.
    bot.say(ME, "¿y mañana?");
    assert_eq!(bot.wait_for_sent(ME, 1, Duration::from_secs(20)).await, ["re: ¿y mañana?"]);
    assert_eq!(bot.voices_sent_to(ME).len(), 1);
}
