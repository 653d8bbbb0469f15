//! Figures as files: the SVG that plotters draws ([`plot`](super::plot),
//! and the studies' figures under `study/`) written as it is, or rendered to PNG
//! or PDF (`figure_render`, behind the `figures` cargo feature, on by
//! default). Every figure goes through [`write_figure`]; the drawing code never knows the
//! format. Which format a file gets is decided here, before any work: the flag, else the
//! file's extension, else SVG.

use crate::error::{Error, Result};
use std::path::Path;

/// The file format of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureFormat {
    /// The SVG as plotters draws it.
    Svg,
    /// A raster image, twice the SVG's size.
    Png,
    /// A one-page PDF with the text as text and the font embedded.
    Pdf,
}

impl FigureFormat {
    /// Every format, in the order `--help` lists them.
    pub(crate) const ALL: [FigureFormat; 3] =
        [FigureFormat::Svg, FigureFormat::Png, FigureFormat::Pdf];

    /// Its file name extension (`svg`, `png`, `pdf`).
    pub(crate) fn extension(self) -> &'static str {
        match self {
            FigureFormat::Svg => "svg",
            FigureFormat::Png => "png",
            FigureFormat::Pdf => "pdf",
        }
    }

    /// The format `path`'s extension names (any case), or `None`.
    pub(crate) fn of_path(path: &Path) -> Option<FigureFormat> {
        let ext = path.extension()?.to_str()?;
        Self::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
    }

    /// The format to write `path` in: `given` (from `flag`), else the one the file's extension
    /// names, else SVG for a name with no extension (or a device such as `/dev/stdout`). An
    /// extension that differs from `flag`, or that names no format this writes (`.jpg`), is a
    /// usage error: the file would hold bytes its name lies about.
    pub(crate) fn resolve(
        given: Option<FigureFormat>,
        path: &Path,
        flag: &str,
    ) -> Result<FigureFormat> {
        Self::resolve_name(given, path, flag).and_then(FigureFormat::available)
    }

    /// The format `resolve` picks, whether or not this build can write it.
    fn resolve_name(given: Option<FigureFormat>, path: &Path, flag: &str) -> Result<FigureFormat> {
        let ext = path
            .extension()
            .filter(|_| !is_special_file(path))
            .map(|e| e.to_string_lossy().into_owned());
        match (given, ext) {
            (Some(given), Some(ext)) if !given.extension().eq_ignore_ascii_case(&ext) => {
                Err(Error::Usage(format!(
                    "{flag} {} but the file {} ends in .{ext}: make them agree (or drop {flag}: \
                     the extension decides)",
                    given.extension(),
                    path.display(),
                )))
            }
            (Some(given), _) => Ok(given),
            (None, None) => Ok(FigureFormat::Svg),
            (None, Some(ext)) => Self::of_path(path).ok_or_else(|| {
                Error::Usage(format!(
                    "{}: a figure is written as .svg, .png or .pdf, not .{ext}; rename the file \
                     or give {flag} svg|png|pdf",
                    path.display()
                ))
            }),
        }
    }

    /// The format, or a usage error when this binary was built without what renders it.
    fn available(self) -> Result<FigureFormat> {
        self.available_in(cfg!(feature = "figures"))
    }

    /// [`Self::available`] in a build with or without the `figures` feature: the refusal is
    /// tested in the default build too (the full gate checks that the build without it
    /// compiles, and builds it no further).
    fn available_in(self, figures: bool) -> Result<FigureFormat> {
        if self == FigureFormat::Svg || figures {
            return Ok(self);
        }
        Err(Error::Usage(format!(
            "{} figures: built without feature figures: rebuild with --features figures \
             (a default build has it), or write .svg",
            self.extension().to_uppercase()
        )))
    }
}

/// A device, FIFO or link (`/dev/stdout`): written through whatever its name.
fn is_special_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// `svg` in `format`: the SVG's bytes, or the PNG or PDF rendered from it. `path` is the file
/// they are for, named in the error when rendering fails.
pub(crate) fn encode(path: &Path, svg: &str, format: FigureFormat) -> Result<Vec<u8>> {
    let rendered = match format.available()? {
        FigureFormat::Svg => Ok(svg.as_bytes().to_vec()),
        #[cfg(feature = "figures")]
        FigureFormat::Png => super::figure_render::render_png(svg),
        #[cfg(feature = "figures")]
        FigureFormat::Pdf => super::figure_render::render_pdf(svg),
        #[cfg(not(feature = "figures"))]
        other => Err(format!("{} needs the figures feature", other.extension())),
    };
    rendered.map_err(|message| Error::Output {
        path: path.to_path_buf(),
        source: std::io::Error::other(message),
    })
}

/// Write the figure `svg` to `path` in `format`, atomically: a failed conversion writes
/// nothing.
pub fn write_figure(path: &Path, svg: &str, format: FigureFormat) -> Result<()> {
    crate::io::write_atomic(path, &encode(path, svg, format)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_and_the_flag_must_agree() {
        let f = |given, name: &str| FigureFormat::resolve_name(given, Path::new(name), "--format");
        assert_eq!(f(None, "a.PNG").unwrap(), FigureFormat::Png);
        assert_eq!(f(None, "a.pdf").unwrap(), FigureFormat::Pdf);
        assert_eq!(f(None, "figure").unwrap(), FigureFormat::Svg);
        assert_eq!(
            f(Some(FigureFormat::Pdf), "figure").unwrap(),
            FigureFormat::Pdf
        );
        assert_eq!(
            f(Some(FigureFormat::Png), "a.png").unwrap(),
            FigureFormat::Png
        );
        let mismatch = f(Some(FigureFormat::Png), "a.svg").unwrap_err().to_string();
        assert!(mismatch.contains("--format png but the file a.svg ends in .svg"));
        assert!(f(None, "a.jpg")
            .unwrap_err()
            .to_string()
            .contains("not .jpg"));
        assert!(f(Some(FigureFormat::Png), "a.jpg").is_err());
    }

    #[test]
    fn without_the_feature_png_and_pdf_say_how_to_rebuild() {
        for format in [FigureFormat::Png, FigureFormat::Pdf] {
            let e = format.available_in(false).unwrap_err();
            assert!(matches!(e, Error::Usage(_)), "{e}");
            assert!(
                e.to_string().contains("rebuild with --features figures"),
                "{e}"
            );
            assert_eq!(format.available_in(true).unwrap(), format);
        }
        assert_eq!(
            FigureFormat::Svg.available_in(false).unwrap(),
            FigureFormat::Svg
        );
        // This build's own answer, through the path every command takes.
        let png = FigureFormat::resolve(None, Path::new("a.png"), "--format");
        assert_eq!(png.is_ok(), cfg!(feature = "figures"));
    }
}
