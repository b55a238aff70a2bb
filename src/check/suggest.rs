//! "Did you mean" suggestions for unknown names.

/// The candidate closest to `name`, when it is close enough to be a likely typo.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| !c.eq_ignore_ascii_case(&name))
        .map(|c| (strsim::jaro_winkler(&name, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, c)| c)
}

/// `help` text for an unknown name: a suggestion, or the fallback.
pub fn help(name: &str, candidates: &[&str], fallback: impl FnOnce() -> String) -> String {
    match closest(name, candidates.iter().copied()) {
        Some(candidate) => format!("did you mean `{candidate}`?"),
        None => fallback(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["holding", "handempty", "on-table"];
        assert_eq!(closest("holdng", names), Some("holding"));
        assert_eq!(closest("ontable", names), Some("on-table"));
        assert_eq!(closest("zebra", names), None);
    }
}
