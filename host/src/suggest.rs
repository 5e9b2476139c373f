//! "Did you mean": the known name a misspelt one most likely meant, for
//! every message that names something unknown (a config property, a
//! palette, a time zone, a komorebi message).

/// The known name closest to `unknown`, if it is close enough to be a typo.
pub fn did_you_mean<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lowered = unknown.to_lowercase();
    known
        .into_iter()
        .map(|candidate| (candidate, strsim::normalized_damerau_levenshtein(&lowered, &candidate.to_lowercase())))
        .filter(|(candidate, score)| *score >= 0.7 && *candidate != unknown)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(candidate, _)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(did_you_mean("Icn", ["None", "Icon", "Text", "IconAndText"]), Some("Icon"));
        assert_eq!(did_you_mean("widget_spacng", ["widget_spacing", "height"]), Some("widget_spacing"));
        assert_eq!(did_you_mean("zzz", ["None", "Icon"]), None);
        assert_eq!(did_you_mean("show_temperature_icon", ["show_default_interface", "show_icon"]), None);
    }
}
