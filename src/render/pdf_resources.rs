//! A PDF's resource dictionaries put in order, so that the same figure gives the same bytes in
//! every process (`figure_render`'s PDF, behind the `figures` feature). Compiled in every test
//! build too, so that its test runs where the unit tests run, with or without that feature.

/// The PDF with every resource dictionary's entries in sorted order. svg2pdf lists a page's or
/// an XObject's resources (`/XObject`, `/ExtGState`, `/Font`, ...) in hash-map order, which
/// changes from process to process; pdf-writer puts each entry (`/xo12 40 0 R`) on a line of
/// its own, so sorting those lines makes the bytes depend on the content alone, and leaves the
/// length and offset of every object unchanged (the cross-reference table stays true). Stream
/// bodies are copied untouched, skipped by their `/Length`.
pub(super) fn sorted_resources(pdf: &[u8]) -> Vec<u8> {
    const KINDS: [&[u8]; 6] = [
        b"/XObject <<",
        b"/ExtGState <<",
        b"/Font <<",
        b"/ColorSpace <<",
        b"/Pattern <<",
        b"/Shading <<",
    ];
    let mut out = Vec::with_capacity(pdf.len());
    let mut rest = pdf;
    let mut length = 0usize;
    let line = |at: &[u8]| match at.iter().position(|&b| b == b'\n') {
        Some(n) => n + 1,
        None => at.len(),
    };
    while !rest.is_empty() {
        let n = line(rest);
        let (head, tail) = rest.split_at(n);
        let text = head.trim_ascii();
        out.extend_from_slice(head);
        rest = tail;
        if let Some(value) = text.strip_prefix(b"/Length ") {
            length = std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
        } else if text == b"stream" {
            let body = length.min(rest.len());
            out.extend_from_slice(&rest[..body]);
            rest = &rest[body..];
        } else if KINDS.contains(&text) {
            // The entries up to the line that closes the dictionary, one reference a line.
            let indent = head.len() - head.trim_ascii_start().len();
            let close = [&head[..indent], b">>\n"].concat();
            let mut entries: Vec<&[u8]> = Vec::new();
            let mut at = rest;
            while !at.is_empty() && !at.starts_with(&close) {
                let n = line(at);
                entries.push(&at[..n]);
                at = &at[n..];
            }
            if at.is_empty() || entries.iter().any(|e| e.contains(&b'<')) {
                continue; // not the shape svg2pdf writes: leave it as it is
            }
            entries.sort_unstable();
            entries.iter().for_each(|e| out.extend_from_slice(e));
            rest = at;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_entries_are_sorted_and_streams_left_alone() {
        let pdf = b"1 0 obj\n<<\n  /Resources <<\n    /XObject <<\n      /xo9 20 0 R\n      \
/xo10 21 0 R\n    >>\n  >>\n  /Length 12\n>>\nstream\n/Font <<\nb\na\nendstream\nendobj\n";
        let sorted = sorted_resources(pdf);
        assert_eq!(sorted.len(), pdf.len());
        let text = String::from_utf8(sorted).unwrap();
        assert!(
            text.contains("      /xo10 21 0 R\n      /xo9 20 0 R\n    >>\n"),
            "{text}"
        );
        assert!(text.contains("stream\n/Font <<\nb\na\nendstream"), "{text}");
    }
}
