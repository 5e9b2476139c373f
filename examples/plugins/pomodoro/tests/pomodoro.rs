//! The pomodoro timer run headless over a scripted clock.

use obi_harness::{Emphasis, Harness, Input, Script, texts};
use std::time::Duration;

fn start(config: &str) -> (Harness, Script) {
    let script = Script::at("2024-03-09T15:04:05.250Z".parse().unwrap());
    let timer = Harness::plugin(obi_harness::this_widget!(), config, &[], &script).unwrap();
    (timer, script)
}

#[test]
fn it_waits_for_a_click_then_counts_down_on_the_second() {
    let (mut timer, script) = start(r#"{ "work_minutes": 25 }"#);
    let view = timer.refresh().unwrap();
    assert_eq!((texts(&view), view.items[0].emphasis), (vec!["25:00".to_owned()], Emphasis::Muted));
    assert_eq!(timer.next_refresh(), None, "paused: nothing to wake for");

    let view = timer.input("pomodoro", Input::PrimaryClick).unwrap();
    assert_eq!((texts(&view), view.items[0].emphasis), (vec!["25:00".to_owned()], Emphasis::Normal));
    assert_eq!(timer.next_refresh(), Some(Duration::from_secs(1)));

    script.advance(Duration::from_millis(1300));
    assert_eq!(texts(&timer.refresh().unwrap()), ["24:59"]);
    assert_eq!(timer.next_refresh(), Some(Duration::from_millis(700)), "the next second of the countdown");
}

#[test]
fn a_click_pauses_and_goes_on_and_a_right_click_starts_over() {
    let (mut timer, script) = start("{}");
    timer.input("pomodoro", Input::PrimaryClick).unwrap();
    script.advance(Duration::from_secs(60));
    let paused = timer.input("pomodoro", Input::PrimaryClick).unwrap();
    assert_eq!((texts(&paused), paused.items[0].emphasis), (vec!["24:00".to_owned()], Emphasis::Muted));
    script.advance(Duration::from_secs(600));
    assert_eq!(texts(&timer.refresh().unwrap()), ["24:00"], "time stands still while paused");
    timer.input("pomodoro", Input::PrimaryClick).unwrap();
    script.advance(Duration::from_secs(30));
    assert_eq!(texts(&timer.refresh().unwrap()), ["23:30"]);
    assert_eq!(texts(&timer.input("pomodoro", Input::SecondaryClick).unwrap()), ["25:00"]);
}

#[test]
fn work_is_followed_by_a_break_shown_urgent() {
    let (mut timer, script) = start(r#"{ "work_minutes": 1, "break_minutes": 2 }"#);
    timer.input("pomodoro", Input::PrimaryClick).unwrap();
    script.advance(Duration::from_secs(61));
    let view = timer.refresh().unwrap();
    assert_eq!((texts(&view), view.items[0].emphasis), (vec!["01:59".to_owned()], Emphasis::Urgent));
    script.advance(Duration::from_secs(120));
    let view = timer.refresh().unwrap();
    assert_eq!((texts(&view), view.items[0].emphasis), (vec!["00:59".to_owned()], Emphasis::Normal));
}

#[test]
fn a_bad_config_is_refused_and_the_schema_describes_the_good_one() {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    let error = Harness::plugin(obi_harness::this_widget!(), r#"{ "work_minutes": 0 }"#, &[], &script).err().unwrap();
    assert!(error.contains("work_minutes must be at least 1"), "{error}");
    let error = Harness::plugin(obi_harness::this_widget!(), r#"{ "work": 5 }"#, &[], &script).err().unwrap();
    assert!(error.contains("unknown field `work`"), "{error}");

    let schema = obi_harness::config_schema(obi_harness::this_widget!()).unwrap().expect("it gives a schema");
    assert_eq!(schema["properties"]["work_minutes"]["type"], "integer");
    assert!(schema["properties"]["break_minutes"]["description"].as_str().unwrap().contains("break"));
}
