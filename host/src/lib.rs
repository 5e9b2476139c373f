pub mod stock { include!(concat!(env!("OUT_DIR"), "/stock_widgets.rs")); }
