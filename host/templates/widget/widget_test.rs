//! The widget run headless, as the bar runs it, over a scripted clock.

use obi_harness::{Harness, Input, Script, texts};

#[test]
fn it_says_hello_and_counts_clicks() {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    let mut widget = Harness::plugin(obi_harness::this_widget!(), r#"{ "name": "Obi" }"#, &[], &script).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["Hello, Obi (0 clicks)"]);
    assert!(view.items[0].tooltip.as_deref().unwrap().starts_with("said at "));
    let view = widget.input("hello", Input::PrimaryClick).unwrap();
    assert_eq!(texts(&view), ["Hello, Obi (1 clicks)"]);
}
