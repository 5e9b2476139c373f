//! Obi against komorebi's protocol: the messages it knows are komorebi's.

mod common;

use common::shared;
use obi::tiler::komorebi::MESSAGES;

/// The 187 message names and their payload types, as the reference lists them.
#[test]
fn every_komorebi_message_is_known_with_its_payload() {
    let Some(shared) = shared() else { return };
    let text = std::fs::read_to_string(shared.join("reference/komorebi-socket-messages.json")).unwrap();
    let reference: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let listed: Vec<(String, Vec<String>)> = reference
        .iter()
        .map(|message| {
            let types = message["content"].as_array().unwrap().iter().map(|ty| ty.as_str().unwrap().to_owned());
            (message["type"].as_str().unwrap().to_owned(), types.collect())
        })
        .collect();
    let known: Vec<(String, Vec<String>)> = MESSAGES
        .iter()
        .map(|(name, types)| ((*name).to_owned(), types.iter().map(|ty| (*ty).to_owned()).collect()))
        .collect();
    assert_eq!(known.len(), 187);
    assert_eq!(known, listed);
}
