use super::*;

#[test]
fn openers_in_both_languages() {
    assert_eq!(detect("Remind me to call mum tomorrow at 9"), Some(Intent::Set { sentence: "call mum tomorrow at 9".into() }));
    assert_eq!(detect("Recuérdame llamar a mamá mañana a las 9"), Some(Intent::Set { sentence: "llamar a mamá mañana a las 9".into() }));
    assert_eq!(detect("snooze it 10 minutes"), Some(Intent::Snooze { query: "".into(), minutes: 10 }));
    assert_eq!(detect("What is the capital of France?"), None);
}
