//! The `09` reply: `device=reversi state=playing human=X ... budget=1000ms games=1/256`.

/// The value of `key` in a `09` reply (space-separated `key=value` pairs), if present.
///
/// ```rust
/// use kgames_client::status_value;
/// let s = "device=chess state=playing depth=7 pv=e2e4,e7e5 games=1/256\n";
/// assert_eq!(status_value(s, "depth"), Some("7"));
/// assert_eq!(status_value(s, "pv"), Some("e2e4,e7e5"));
/// assert_eq!(status_value(s, "score"), None);
/// ```
pub fn status_value<'a>(status: &'a str, key: &str) -> Option<&'a str> {
    status
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_keys_only() {
        let s = "device=kxo state=playing n=4 nodes=12";
        assert_eq!(status_value(s, "n"), Some("4"));
        assert_eq!(status_value(s, "nodes"), Some("12"));
        assert_eq!(status_value(s, "node"), None);
        assert_eq!(status_value("device=kxo", "state"), None);
        assert_eq!(status_value("", "state"), None);
        assert_eq!(status_value("a= b=1", "a"), Some(""));
    }
}
