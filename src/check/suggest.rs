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

/// `help` text for an undeclared name used at `uses` places. A name used consistently is more
/// likely missing from the declarations than misspelled, so the help says to declare it first
/// and offers the closest declared name only as an alternative. "Consistently" means used at
/// two or more places, or a numbered sibling of a declared name (`ball2` next to `ball1`). A
/// name used once and close to a declared one is most likely a typo: "did you mean".
pub fn undeclared(name: &str, declare: &str, closest: Option<&str>, uses: usize) -> String {
    match closest {
        None => declare.to_string(),
        Some(candidate) if uses >= 2 || numbered_siblings(name, candidate) => {
            format!("{declare} (or, if `{candidate}` was meant, use `{candidate}`)")
        }
        Some(candidate) => format!("did you mean `{candidate}`?"),
    }
}

/// Whether two names are the same stem with different numbers, as `ball2` and `ball1`.
fn numbered_siblings(a: &str, b: &str) -> bool {
    let split = |s: &str| {
        let stem = s.trim_end_matches(|c: char| c.is_ascii_digit());
        (stem.to_lowercase(), s.len() - stem.len())
    };
    let ((stem_a, digits_a), (stem_b, digits_b)) = (split(a), split(b));
    !stem_a.is_empty() && stem_a == stem_b && digits_a > 0 && digits_b > 0
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

    #[test]
    fn a_consistent_name_is_declared_before_it_is_corrected() {
        let declare = "declare `ball2` in `(:objects …)`";
        assert_eq!(
            undeclared("ball2", declare, Some("ball1"), 1),
            "declare `ball2` in `(:objects …)` (or, if `ball1` was meant, use `ball1`)"
        );
        assert_eq!(
            undeclared("blal", declare, Some("ball"), 1),
            "did you mean `ball`?"
        );
        assert!(undeclared("blal", declare, Some("ball"), 2).starts_with("declare"));
        assert_eq!(undeclared("x", declare, None, 1), declare);
    }
}
