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
//! hash-ordered resource dictionaries are put in order (`super::pdf_resources`).

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
        .map(|pdf| super::pdf_resources::sorted_resources(&pdf))
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
