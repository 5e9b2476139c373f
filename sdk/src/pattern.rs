//! What a strftime pattern (chrono's syntax) implies for a widget that
//! shows it: how often its text can change.

/// Whether the pattern shows something that changes more often than once a minute.
pub fn shows_seconds(pattern: &str) -> bool {
    ["%S", "%T", "%X", "%r", "%s", "%f", "%c", "%+"].iter().any(|spec| pattern.contains(spec)) || pattern.contains("%.")
}

/// Milliseconds between two wall-clock ticks that catch every change of
/// the pattern's text: each second, or each minute.
pub fn tick_ms(pattern: &str) -> u64 {
    if shows_seconds(pattern) { 1_000 } else { 60_000 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_tick_each_second_and_the_rest_each_minute() {
        for pattern in ["%T", "%H:%M:%S", "%r", "%s", "%H:%M:%.3f", "%c"] {
            assert_eq!(tick_ms(pattern), 1_000, "{pattern}");
        }
        for pattern in ["%H:%M", "%D", "%A %e %B %Y", "%l:%M %p"] {
            assert_eq!(tick_ms(pattern), 60_000, "{pattern}");
        }
    }
}
