//! A config laid over another that lies beneath it (the bar a sway or i3
//! `bar { }` block describes, when Obi runs in swaybar's or i3bar's
//! place): every key the config sets wins; its widgets join those beneath,
//! each taking the place of the one of its kind there.

use super::BarConfig;
use super::model::BarModel;
use serde_json::Value;

/// The widget lists, merged rather than replaced.
const SIDES: [&str; 3] = ["left_widgets", "center_widgets", "right_widgets"];

impl BarConfig {
    /// This config over `beneath` (a config's JSON, as its model writes
    /// it). Both are checked configs, so what they make is one too; were
    /// it not, this config alone is kept, and the reason logged.
    pub fn over(&self, beneath: &Value) -> BarConfig {
        let over = serde_json::to_value(&self.model).expect("a config's model serializes");
        let merged = merge(beneath, over);
        match serde_json::from_value::<BarModel>(merged) {
            Ok(model) => BarConfig { model, directory: self.directory.clone() },
            Err(error) => {
                tracing::error!("the config cannot be laid over the bar block's: {error}; the config alone is used");
                self.clone()
            }
        }
    }
}

fn merge(beneath: &Value, over: Value) -> Value {
    let (Value::Object(beneath), Value::Object(over)) = (beneath, over) else { return beneath.clone() };
    let mut merged = beneath.clone();
    for (key, value) in over {
        let joined = match (SIDES.contains(&key.as_str()), merged.get(&key), &value) {
            (true, Some(Value::Array(below)), Value::Array(above)) => Value::Array(join(below, above)),
            _ => value,
        };
        merged.insert(key, joined);
    }
    Value::Object(merged)
}

/// The widgets `below` with `above` in the place of those of their kind
/// (an entry's one key: `"Komorebi"`), and the others after them.
fn join(below: &[Value], above: &[Value]) -> Vec<Value> {
    let kind = |entry: &Value| entry.as_object().and_then(|entry| entry.keys().next().cloned());
    let mut joined = below.to_vec();
    for entry in above {
        match joined.iter().position(|placed| kind(placed).is_some() && kind(placed) == kind(entry)) {
            Some(at) => joined[at] = entry.clone(),
            None => joined.push(entry.clone()),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(json: Value) -> BarConfig {
        BarConfig::parse(&json.to_string(), "test").unwrap().config
    }

    #[test]
    fn what_the_config_sets_wins_and_its_widgets_join_those_beneath() {
        let beneath = json!({
            "height": 24, "edge": "Bottom", "font_size": 13,
            "left_widgets": [ { "Komorebi": { "workspaces": { "enable": true, "hide_empty_workspaces": false } } } ],
            "right_widgets": [ { "StatusCommand": { "enable": true, "command": "i3status" } } ]
        });
        let over = config(json!({
            "height": 30,
            "left_widgets": [ { "Komorebi": { "workspaces": { "enable": true, "hide_empty_workspaces": true } } } ],
            "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ]
        }));
        let merged = over.over(&beneath);
        assert_eq!((merged.height(), merged.font_size()), (30.0, 13.0));
        assert_eq!(merged.edge(), crate::config::model::Edge::Bottom);
        let kinds = |side: &[crate::config::model::WidgetConfig]| side.iter().map(|w| w.kind()).collect::<Vec<_>>();
        assert_eq!(kinds(&merged.model.left_widgets), ["Komorebi"], "in the place of the block's");
        assert_eq!(kinds(&merged.model.right_widgets), ["StatusCommand", "Time"], "after the block's");
        let left = serde_json::to_value(&merged.model.left_widgets).unwrap();
        assert_eq!(left[0]["Komorebi"]["workspaces"]["hide_empty_workspaces"], true);
    }
}
