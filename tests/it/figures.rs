//! Figures as PNG and PDF (`src/render/figure_file.rs`), from the committed reports: a PNG
//! decodes at twice the SVG's size with its text drawn in the embedded font, a PDF carries that
//! font embedded and its text as text (poppler's `pdffonts` and `pdftotext` read it), the same
//! inputs give the same bytes, whatever family an SVG names its text is set in that font, and
//! a file name that disagrees with `--format` is refused.

use crate::common::needs::{needs, Need};
use crate::common::{cli, repo, tenure_eval_ok};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The two published session reports of PrecisionMemBench (BM25 and its cosine baseline).
fn session_reports() -> [PathBuf; 2] {
    [
        repo("tests/golden/pmb-baseline/session-retrieval-report-tenure.json"),
        repo("tests/golden/pmb-baseline/session-retrieval-report-vector.json"),
    ]
}

/// `plot` of the two session reports (Figure 2) into `out`, with `extra` flags.
fn drift(out: &Path, extra: &[&str]) -> Vec<u8> {
    let [a, b] = session_reports();
    let out_arg = out.to_str().unwrap();
    tenure_eval_ok(&[&["plot", "--out", out_arg], extra].concat(), &[&a, &b]);
    std::fs::read(out).unwrap()
}

/// A decoded PNG: width, height and RGBA rows.
struct Image {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl Image {
    fn decode(bytes: &[u8]) -> Image {
        let mut decoder = png::Decoder::new(bytes);
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut rgba = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut rgba).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba);
        rgba.truncate(info.buffer_size());
        Image {
            width: info.width as usize,
            height: info.height as usize,
            rgba,
        }
    }

    fn pixel(&self, x: usize, y: usize) -> [u8; 4] {
        let i = 4 * (y * self.width + x);
        self.rgba[i..i + 4].try_into().unwrap()
    }

    /// Dark opaque pixels (text is black) in the rectangle [x0, x1) x [y0, y1): their count
    /// and the horizontal span they cover.
    fn dark(&self, (x0, x1): (usize, usize), (y0, y1): (usize, usize)) -> (usize, usize) {
        let (mut n, mut left, mut right) = (0, usize::MAX, 0);
        for y in y0..y1 {
            for x in x0..x1 {
                let [r, g, b, a] = self.pixel(x, y);
                if a > 200 && r < 90 && g < 90 && b < 90 {
                    n += 1;
                    left = left.min(x);
                    right = right.max(x);
                }
            }
        }
        (n, right.saturating_sub(left))
    }
}

/// Figure 2 as PNG: 960 x 440 SVG pixels drawn at 2x, a white page with both series'
/// colours, the title's text in the band above the plot, the legend's labels right of it.
#[test]
fn the_drift_figure_as_png_has_its_size_its_series_and_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let image = Image::decode(&drift(&dir.path().join("figure2.png"), &[]));
    assert_eq!((image.width, image.height), (1920, 880));
    // Not blank: the background is white, and both series' colours are drawn (the lines are
    // 3 and 2 SVG pixels wide, so their cores are the exact colour).
    assert_eq!(image.pixel(4, 4), [255, 255, 255, 255]);
    for colour in [[0x1f, 0x77, 0xb4], [0xd6, 0x27, 0x28]] {
        let n = image
            .rgba
            .chunks(4)
            .filter(|p| p[..3] == colour && p[3] == 255)
            .count();
        assert!(n > 500, "{colour:?}: {n} pixels");
    }
    // The title ("Drift score per session turn", 14.5 px) sits in the top 40 SVG pixels of
    // the plot's 760: dark glyph pixels spread over more than 150 SVG pixels (DejaVu Sans sets
    // it 194 wide). With no font the band would be empty.
    let (n, span) = image.dark((0, 1520), (0, 80));
    assert!(
        n > 1000 && span > 300,
        "title band: {n} dark pixels over {span}"
    );
    // The legend's labels ("tenure", "vector"), right of the plot.
    let (n, _) = image.dark((1520, 1920), (100, 220));
    assert!(n > 200, "legend: {n} dark pixels");
}

/// The same reports give the same PNG and the same PDF, byte for byte.
#[test]
fn the_same_reports_give_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["f.png", "f.pdf"] {
        let a = drift(&dir.path().join(format!("a-{name}")), &[]);
        let b = drift(&dir.path().join(format!("b-{name}")), &[]);
        assert!(a == b, "{name}: two runs differ");
    }
}

/// `pdffonts` on `pdf`: the rows of its font table (name, type, encoding, emb, sub, uni, ...).
fn pdffonts(pdf: &Path) -> Vec<Vec<String>> {
    let out = Command::new("pdffonts").arg(pdf).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

/// `pdftotext -layout` on `pdf`.
fn pdftotext(pdf: &Path) -> String {
    let out = Command::new("pdftotext")
        .args([pdf.as_os_str(), "-layout".as_ref(), "-".as_ref()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The one font, DejaVu Sans, embedded as a subset with a Unicode map (so text extracts).
fn assert_dejavu_embedded(pdf: &Path) {
    let fonts = pdffonts(pdf);
    assert_eq!(fonts.len(), 1, "{fonts:?}");
    let row = &fonts[0];
    assert!(row[0].ends_with("+DejaVuSans"), "{row:?}");
    // emb, sub, uni: the last columns before the object number and generation.
    let n = row.len();
    assert_eq!(row[n - 5..n - 2], ["yes", "yes", "yes"], "{row:?}");
}

/// `pdf` embeds DejaVu Sans and `pdftotext` finds every one of `words` in it.
fn assert_pdf_text(pdf: &Path, words: &[&str]) {
    assert_dejavu_embedded(pdf);
    let text = pdftotext(pdf);
    for words in words {
        assert!(text.contains(words), "no {words:?} in:\n{text}");
    }
}

/// Figure 2 as PDF (`--format pdf`, a name with no extension): a PDF whose one font is
/// embedded and whose title, axis titles, ticks and legend are text.
#[test]
fn the_drift_figure_as_pdf_embeds_its_font_and_keeps_its_text() {
    if !needs(&[Need::Poppler]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("figure2");
    let bytes = drift(&pdf, &["--format", "pdf"]);
    assert!(bytes.starts_with(b"%PDF-"));
    assert_pdf_text(
        &pdf,
        &[
            "Drift score per session turn",
            "turn (x = cross-session case)",
            "drift = noise / (relevant + pinned)",
            "tenure",
            "vector",
            "x0",
        ],
    );
}

/// Whatever family an SVG's text names (each generic family, the font's own name, a family no
/// machine has), it is set in the one font compiled in: the PDF embeds DejaVu Sans alone and
/// every line is text in it (`src/render/figure_render.rs`: no system font is looked up, and a
/// text whose family found no face would be dropped). Through the library's `write_figure`.
#[test]
fn every_family_an_svg_names_is_set_in_the_embedded_font() {
    if !needs(&[Need::Poppler]) {
        return;
    }
    let families = [
        "sans-serif",
        "serif",
        "monospace",
        "cursive",
        "fantasy",
        "DejaVu Sans",
        "No Such Family",
    ];
    let lines: String = families
        .iter()
        .enumerate()
        .map(|(i, family)| {
            format!(
                "<text x=\"10\" y=\"{}\" font-family=\"{family}\" font-size=\"14\">line{i}</text>",
                20 + 20 * i
            )
        })
        .collect();
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"160\">{lines}</svg>"
    );
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("families.pdf");
    tenure_eval::render::write_figure(&pdf, &svg, tenure_eval::render::FigureFormat::Pdf).unwrap();
    let words: Vec<String> = (0..families.len()).map(|i| format!("line{i}")).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    assert_pdf_text(&pdf, &words);
}

/// Figure 1 as PDF: the query in the title and the belief ids down the axis are text.
#[test]
fn the_score_figure_as_pdf_names_the_query_and_the_beliefs() {
    if !needs(&[Need::Poppler]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    crate::common::tenure_eval_into(
        &["static", "--suite", "paper", "--backend", "bm25,cosine"],
        dir.path(),
    );
    let pdf = dir.path().join("figure1.pdf");
    let case = "conflict-scope-disambiguation-redis-code";
    tenure_eval_ok(
        &["plot", "--case", case, "--out", pdf.to_str().unwrap()],
        &[
            &dir.path().join("paper/retrieval-report.json"),
            &dir.path()
                .join("paper/all-minilm-l6-v2-retrieval-report-vector.json"),
        ],
    );
    assert_pdf_text(
        &pdf,
        &[
            case,
            "b-redis-code",
            "Lucene BM25",
            "all-minilm-l6-v2",
            "score",
        ],
    );
}

/// `scale --plot x.png` and `--plot-format pdf`: the study's figure in both, the PDF with the
/// non-ASCII "µs" of its axis title as text.
#[test]
fn the_scale_figure_is_written_as_png_and_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("scale.png");
    let pdf = dir.path().join("scale-figure");
    for (file, format) in [(&png, None), (&pdf, Some("pdf"))] {
        let mut args = vec!["--plot", file.to_str().unwrap()];
        if let Some(format) = format {
            args.extend(["--plot-format", format]);
        }
        crate::scale::small_scale(&args);
    }
    let image = Image::decode(&std::fs::read(&png).unwrap());
    assert_eq!((image.width, image.height), (2160, 760));
    let (n, span) = image.dark((0, 2160), (0, 60));
    assert!(
        n > 1000 && span > 600,
        "title band: {n} dark pixels over {span}"
    );
    if !needs(&[Need::Poppler]) {
        return;
    }
    assert_pdf_text(
        &pdf,
        &[
            "Suite pmb planted in synthetic stores",
            "search, µs",
            "p95",
            "1k",
        ],
    );
}

/// A file name that disagrees with the format asked for, or names a format no figure is
/// written in, is a usage error (exit 2) that says so, and nothing is written.
#[test]
fn a_format_the_file_name_contradicts_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let [report, _] = session_reports();
    let cases: [(&str, &[&str], &str); 4] = [
        ("f.svg", &["--format", "png"], "--format png but the file"),
        (
            "f.jpg",
            &[],
            "a figure is written as .svg, .png or .pdf, not .jpg",
        ),
        ("f.pdf", &["--format", "tiff"], "invalid value 'tiff'"),
        ("f.png", &["--format", "pdf"], "ends in .png"),
    ];
    for (name, flags, message) in cases {
        let file = dir.path().join(name);
        let out = cli(&["plot", "--out", file.to_str().unwrap()])
            .args(flags)
            .arg(&report)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name} {flags:?}: {stderr}");
        assert!(stderr.contains(message), "{name} {flags:?}: {stderr}");
        assert!(!file.exists(), "{name}");
    }
    // scale refuses before measuring anything.
    let file = dir.path().join("s.svg");
    let out = cli(&["scale", "--sizes", "35", "--plot", file.to_str().unwrap()])
        .args(["--plot-format", "pdf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--plot-format pdf but the file"));
}

/// `flywheel --plot`: its figure as PNG at twice its size, and as PDF with the same bytes from
/// the same seed (its legends' translucent backgrounds add graphics states to the resources
/// svg2pdf lists in hash order).
#[test]
fn the_flywheel_figure_is_written_as_png_and_the_same_pdf_twice() {
    let dir = tempfile::tempdir().unwrap();
    let plot = |name: &str| -> Vec<u8> {
        let file = dir.path().join(name);
        crate::flywheel::small_flywheel("4", &["--plot", file.to_str().unwrap()], &[]);
        std::fs::read(file).unwrap()
    };
    let image = Image::decode(&plot("f.png"));
    assert_eq!((image.width, image.height), (2160, 840));
    let (n, span) = image.dark((0, 2160), (0, 60));
    assert!(
        n > 1000 && span > 600,
        "title band: {n} dark pixels over {span}"
    );
    let (a, b) = (plot("a.pdf"), plot("b.pdf"));
    assert!(a.starts_with(b"%PDF-") && a == b, "two runs differ");
}
