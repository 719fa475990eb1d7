use super::*;
use chrono::TimeZone;
use chrono_tz::Europe::Madrid;

/// Wednesday 2026-11-18 10:00 in Madrid.
fn now() -> DateTime<Utc> {
    Madrid.with_ymd_and_hms(2026, 11, 18, 10, 0, 0).unwrap().with_timezone(&Utc)
}

fn local(text: &str) -> String {
    match parse(text, now(), Madrid, Options::new(Lang::En)) {
        Ok(r) => r.local().format("%Y-%m-%d %H:%M").to_string(),
        Err(e) => format!("!{:?}", e.kind),
    }
}

/// The phrasings a suggestion offers, each in quotes.
fn offered(e: &DateError) -> Vec<&str> {
    e.suggestion.split('"').skip(1).step_by(2).collect()
}

#[test]
fn ordinary_phrasings() {
    assert_eq!(local("en media hora"), "2026-11-18 10:30");
    assert_eq!(local("tomorrow at noon"), "2026-11-19 12:00");
    assert_eq!(local("a las 6 de la tarde"), "2026-11-18 18:00");
    assert_eq!(local("a las 3"), "!AmbiguousHour");
}

#[test]
fn sentence_split() {
    let s = extract("call mum tomorrow at 9", now(), Madrid, Options::new(Lang::En)).unwrap();
    assert_eq!(s.what, "call mum");
    assert_eq!(s.when_text, "tomorrow at 9");
}

/// "next Friday" said on a Wednesday asks which, and each choice it offers reads
/// back as that day, in both languages.
#[test]
fn an_ambiguous_next_weekday_offers_choices_that_read_back() {
    for (said, lang) in [("el próximo viernes", Lang::Es), ("next friday", Lang::En)] {
        let e = parse(said, now(), Madrid, Options::new(lang)).unwrap_err();
        assert_eq!(e.kind, DateErrorKind::AmbiguousDay, "{said}");
        let choices = offered(&e);
        assert_eq!(choices.len(), 2, "{}", e.suggestion);
        let read: Vec<String> = choices.iter().map(|c| local(c)).collect();
        assert_eq!(read, ["2026-11-20 09:00", "2026-11-27 09:00"], "{said}: {}", e.suggestion);
    }
}

/// A day of the month said in words after "el" is a date; a count after a weekday is
/// not ("el martes, tres periodistas"); "a"/"una" is never a day.
#[test]
fn numbers_after_a_weekday() {
    let split = extract("el martes tres periodistas salieron a las 9 de la mañana", now(), Madrid, Options::new(Lang::Es)).unwrap();
    assert_eq!(split.when.local().format("%Y-%m-%d %H:%M").to_string(), "2026-11-24 09:00");
    assert_eq!(local("el próximo domingo a la tarde"), "!AmbiguousDay");
    assert_eq!(local("el domingo a la tarde"), "2026-11-22 15:00");
}

/// Minutes counted back from an hour, in words or as minutes said as such, read as
/// the hour they make; where the half of the day is unsaid, each choice offered reads
/// back as itself, past midnight too ("la una menos cinco" may be 00:55).
#[test]
fn minutes_before_an_hour() {
    let es = |text: &str| match extract(text, now(), Madrid, Options::new(Lang::Es)) {
        Ok(r) => r.when.local().format("%Y-%m-%d %H:%M").to_string(),
        Err(e) => format!("!{:?}", e.kind),
    };
    assert_eq!(es("ocho menos diez de la tarde"), "2026-11-18 19:50");
    assert_eq!(es("son las ocho menos veinticinco de la noche"), "2026-11-18 19:35");
    assert_eq!(es("tres minutos para las cinco y media de la tarde"), "2026-11-18 17:27");
    assert_eq!(es("cinco minutos antes de las 8 de la noche"), "2026-11-18 19:55");
    assert_eq!(es("a las cero horas"), "2026-11-19 00:00");
    // "antes de la cena" names no hour: no time, rather than ten minutes from now.
    assert!(extract("llama a mamá 10 minutos antes de la cena", now(), Madrid, Options::new(Lang::Es)).is_err());
    let e = parse("a la una menos cinco", now(), Madrid, Options::new(Lang::Es)).unwrap_err();
    assert_eq!(e.kind, DateErrorKind::AmbiguousHour);
    let choices = offered(&e);
    let read: Vec<String> = choices.iter().map(|c| es(c)).collect();
    assert_eq!(read, ["2026-11-18 12:55", "2026-11-19 00:55"], "{}", e.suggestion);
}

/// An hour before seven said with a day that is not today ("el jueves a las 3") is
/// asked, and both hours offered are on that day and read back, in both languages; from
/// seven on ("el miércoles a las 8") the morning's is taken, as the date table says.
#[test]
fn an_early_hour_on_another_day_is_asked_on_that_day() {
    for (said, lang) in [("el jueves a las 3", Lang::Es), ("thursday at 3", Lang::En), ("el 15 de junio a las 3:30", Lang::Es)] {
        let e = parse(said, now(), Madrid, Options::new(lang)).unwrap_err();
        assert_eq!(e.kind, DateErrorKind::AmbiguousHour, "{said}");
        let read: Vec<String> = offered(&e)
            .iter()
            .map(|c| match parse(c, now(), Madrid, Options::new(lang)) {
                Ok(r) => r.local().format("%Y-%m-%d %H:%M").to_string(),
                Err(e) => format!("!{:?}", e.kind),
            })
            .collect();
        let day = if said.contains("junio") { "2027-06-15" } else { "2026-11-19" };
        let minutes = if said.contains(":30") { "30" } else { "00" };
        assert_eq!(read, [format!("{day} 03:{minutes}"), format!("{day} 15:{minutes}")], "{said}: {}", e.suggestion);
    }
    assert_eq!(local("el miércoles a las 8"), "2026-11-25 08:00");
}

/// Read as someone else meant it (a mail's question, where nobody can be asked), a bare
/// hour from one to six is the afternoon's; from seven on, and every hour said outright,
/// as before; a reminder's reading still asks.
#[test]
fn a_bare_hour_read_for_someone_else_is_the_afternoons() {
    let theirs = |said: &str, lang| {
        let options = Options { bare_hour: BareHour::Afternoon, ..Options::new(lang) };
        parse(said, now(), Madrid, options).map(|r| r.local().format("%Y-%m-%d %H:%M").to_string()).unwrap_or_else(|e| format!("!{:?}", e.kind))
    };
    assert_eq!(theirs("el jueves a las 6", Lang::Es), "2026-11-19 18:00");
    assert_eq!(theirs("thursday at 3", Lang::En), "2026-11-19 15:00");
    assert_eq!(theirs("el jueves a las 6 de la mañana", Lang::Es), "2026-11-19 06:00");
    assert_eq!(theirs("el miércoles a las 8", Lang::Es), "2026-11-25 08:00");
    assert_eq!(theirs("el jueves a las 06:00", Lang::Es), "2026-11-19 06:00");
    assert_eq!(parse("el jueves a las 6", now(), Madrid, Options::new(Lang::Es)).unwrap_err().kind, DateErrorKind::AmbiguousHour);
}

/// Said in other assistants' tests: a span counted from a named day, three quarters,
/// midnight in two words, "este sábado" on a Saturday, minutes apart from the hour, the
/// 24-hour clock's leading zero and a part of the day that outweighs it.
#[test]
fn phrasings_from_other_assistants() {
    let es = |text: &str| match extract(text, now(), Madrid, Options::new(Lang::Es)) {
        Ok(r) => r.when.local().format("%Y-%m-%d %H:%M").to_string(),
        Err(e) => format!("!{:?}", e.kind),
    };
    assert_eq!(es("pon música 2 días a partir del viernes"), "2026-11-22 09:00");
    assert_eq!(es("juega 2 días después del viernes"), "2026-11-22 09:00");
    assert_eq!(es("llama en tres cuartos de hora"), "2026-11-18 10:45");
    assert_eq!(es("cita mañana por la noche a las 23 y 3 cuartos"), "2026-11-19 23:45");
    assert_eq!(es("el viernes a media noche"), "2026-11-21 00:00");
    assert_eq!(es("a las 9 de la mañana de este miércoles"), "!Past");
    assert_eq!(es("a las 11 de la mañana de este miércoles"), "2026-11-18 11:00");
    assert_eq!(es("el jueves a las 03 45"), "2026-11-19 03:45");
    assert_eq!(es("llama a las 0600"), "2026-11-19 06:00");
    assert_eq!(es("despertador esta tarde a las 07:00"), "2026-11-18 19:00");
    assert_eq!(es("el anterior lunes"), "!Past");
    assert_eq!(es("llama a mamá la semana próxima"), "!MissingDay");
}

/// An ISO date-time inside a sentence is its day and hour; "la una y cinco" or "una y
/// treinta" said alone is an hour, asked which half of the day; a range of numbers or a
/// count is not ("entre diez y veinte", "una y dos").
#[test]
fn iso_inside_a_sentence_and_an_hour_said_alone() {
    let es = |text: &str| match extract(text, now(), Madrid, Options::new(Lang::Es)) {
        Ok(s) => s.when.local().format("%Y-%m-%d %H:%M").to_string(),
        Err(e) => format!("!{:?}", e.kind),
    };
    assert_eq!(es("volveré 2026-12-16T12:23:59"), "2026-12-16 12:23");
    assert_eq!(es("volveré a las T12:34:20"), "2026-11-18 12:34");
    assert_eq!(es("la una y cinco"), "!AmbiguousHour");
    assert_eq!(es("una y treinta"), "!AmbiguousHour");
    assert_eq!(es("compra entre diez y veinte"), "!NoDate");
    assert_eq!(es("una y dos"), "!NoDate");
}
