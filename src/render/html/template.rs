//! The page: `assets/page.html` with the style, the script and the data inlined. The assets
//! are files of their own so that they can be read and linted as CSS and JavaScript.
//!
//! The script is vanilla JavaScript written for this page, no framework: the page must work
//! offline from `file://` with no network request (no CDN), stay within a 3 MB budget for
//! PrecisionMemBench's 26 reports, and be readable in one sitting; a framework bundle would
//! cost more than the few views it has.

use super::model::Page;

const PAGE: &str = include_str!("assets/page.html");
const STYLE: &str = include_str!("assets/style.css");
/// The script, in two files read as one (`views.js` uses `app.js`'s helpers).
const SCRIPT: [&str; 2] = [
    include_str!("assets/app.js"),
    include_str!("assets/views.js"),
];

/// Text escaped for HTML element content and attribute values.
pub(crate) fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that can sit inside a `<script>` element: every `<` written as `\u003c`, so that no
/// string in the data (a query, a failure message) can close the element (`</script>`) or
/// open a comment (`<!--`). JSON.parse reads it back unchanged.
pub(crate) fn script_json(page: &Page) -> String {
    // Serialising these plain structs cannot fail (no maps with non-string keys).
    escape_script(&serde_json::to_string(page).unwrap_or_else(|_| "null".into()))
}

fn escape_script(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// The whole page.
pub(crate) fn render(page: &Page) -> String {
    let data = script_json(page);
    let mut out = String::with_capacity(
        PAGE.len() + STYLE.len() + SCRIPT[0].len() + SCRIPT[1].len() + data.len(),
    );
    // One pass over the template's markers, so that nothing inserted is read as a marker.
    let mut rest = PAGE;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[at..]);
            rest = "";
            break;
        };
        match &after[..end] {
            "TITLE" => out.push_str(&escape_html(&page.title)),
            "STYLE" => out.push_str(STYLE),
            "SCRIPT" => SCRIPT.iter().for_each(|part| out.push_str(part)),
            "DATA" => out.push_str(&data),
            other => {
                out.push_str("{{");
                out.push_str(other);
                out.push_str("}}");
            }
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_cannot_close_its_script_element() {
        let s = escape_script(&serde_json::to_string("a</script><!--b").unwrap());
        assert!(!s.contains("</script"));
        assert!(!s.contains("<!--"));
        let back: String = serde_json::from_str(&s).unwrap();
        assert_eq!(back, "a</script><!--b");
    }

    #[test]
    fn title_is_escaped() {
        assert_eq!(escape_html("<b>&\"x'"), "&lt;b&gt;&amp;&quot;x&#39;");
    }
}
