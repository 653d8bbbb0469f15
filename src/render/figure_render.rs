//! PNG and PDF rendered from a figure's SVG (the `figures` cargo feature): resvg draws the PNG,
//! typst's svg2pdf writes the PDF, both on the usvg tree of the SVG.
//!
//! Text is set in one font compiled into the binary, DejaVu Sans (`assets/fonts/`, see
//! PROVENANCE.md), which answers for every family an SVG names (`sans-serif`, `serif`, a named
//! family): no system font is ever looked up, so a figure renders the same on a machine with no
//! fonts at all. A PNG is drawn at `PNG_SCALE` times the SVG's size; a PDF keeps text as text,
//! with the subset of the font it uses embedded, on a page of the SVG's size at 96 px to the
//! inch (CSS pixels). Both are byte-identical for the same SVG: resvg and tiny-skia draw
//! deterministically, svg2pdf writes no date, no document id and no file name, and its
//! hash-ordered resource dictionaries are put in order here (`sorted_resources`).

use std::sync::{Arc, OnceLock};
use svg2pdf::usvg::{self, fontdb};

/// The one font: DejaVu Sans 2.37 (Bitstream Vera licence, `assets/fonts/DejaVuSans-LICENSE`).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// Its family name, as the font file states it.
const FAMILY: &str = "DejaVu Sans";

/// A PNG has this many pixels per SVG pixel: 2, so a 1000 px wide figure is 2000 px wide
/// (192 dpi at the SVG's 96), sharp on high-density screens and in slides.
pub(crate) const PNG_SCALE: f32 = 2.0;

/// A PDF page is the SVG's size at this many SVG pixels to the inch (CSS: 96), so a 1000 px
/// wide figure is 750 pt (10.4 in) wide.
pub(crate) const PDF_PX_PER_INCH: f32 = 96.0;

/// `svg` as PNG (the format is the caller's to choose: `figure_file` knows the formats, this
/// file only how to render).
pub(super) fn render_png(svg: &str) -> Result<Vec<u8>, String> {
    png(&tree(svg)?)
}

/// `svg` as PDF, one page of the SVG's size.
pub(super) fn render_pdf(svg: &str) -> Result<Vec<u8>, String> {
    let page = svg2pdf::PageOptions {
        dpi: PDF_PX_PER_INCH,
    };
    svg2pdf::to_pdf(&tree(svg)?, svg2pdf::ConversionOptions::default(), page)
        .map(|pdf| sorted_resources(&pdf))
        .map_err(|e| format!("PDF conversion: {e}"))
}

/// The SVG parsed with the embedded font as every family.
fn tree(svg: &str) -> Result<usvg::Tree, String> {
    let options = usvg::Options {
        font_family: FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| format!("the figure's SVG: {e}"))
}

/// The font database: DejaVu Sans and nothing else, named for every generic family, so that
/// whatever family an SVG asks for resolves to it (and a named family that is not there falls
/// back to `serif`, which is it too).
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_source(fontdb::Source::Binary(Arc::new(FONT)));
            db.set_serif_family(FAMILY);
            db.set_sans_serif_family(FAMILY);
            db.set_monospace_family(FAMILY);
            db.set_cursive_family(FAMILY);
            db.set_fantasy_family(FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// The tree drawn at [`PNG_SCALE`] on a transparent canvas (plotters paints its own white
/// background), as PNG.
fn png(tree: &usvg::Tree) -> Result<Vec<u8>, String> {
    let size = tree.size().to_int_size().scale_by(PNG_SCALE);
    let size = size.ok_or("the figure has no size")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("cannot draw {}x{} pixels", size.width(), size.height()))?;
    let scale = tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE);
    resvg::render(tree, scale, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| format!("PNG encoding: {e}"))
}

/// The PDF with every resource dictionary's entries in sorted order. svg2pdf lists a page's or
/// an XObject's resources (`/XObject`, `/ExtGState`, `/Font`, ...) in hash-map order, which
/// changes from process to process; pdf-writer puts each entry (`/xo12 40 0 R`) on a line of
/// its own, so sorting those lines makes the bytes depend on the content alone, and leaves the
/// length and offset of every object unchanged (the cross-reference table stays true). Stream
/// bodies are copied untouched, skipped by their `/Length`.
fn sorted_resources(pdf: &[u8]) -> Vec<u8> {
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
    fn the_embedded_font_is_the_one_face_and_answers_every_family() {
        let db = fonts();
        assert_eq!(db.len(), 1);
        for family in [
            fontdb::Family::SansSerif,
            fontdb::Family::Serif,
            fontdb::Family::Monospace,
            fontdb::Family::Name(FAMILY),
        ] {
            let id = db.query(&fontdb::Query {
                families: &[family],
                ..fontdb::Query::default()
            });
            assert!(id.is_some(), "{family:?}");
        }
    }

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
