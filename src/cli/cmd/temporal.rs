//! `tenure-eval temporal`: the TemporalClassifier over a statements file (classify) and its
//! per-class precision, recall and F1 against gold labels (eval). See `docs/temporal.md`.

use crate::cli::format::{only, OutputFormat, TABLES};
use crate::render::render;
use crate::study::temporal::draw::{self, Part};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `--part` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PartArg {
    /// LoCoMo's first five samples, BEAM's 100K chats 1-10: for development and training.
    Dev,
    /// LoCoMo's last five, BEAM's chats 11-20: the held-out test set.
    Test,
}
use crate::study::temporal::embedded::EmbedderChoice;
use crate::study::temporal::texts::{read_statements as read_statements_from, TextsFrom};
use crate::study::temporal::{classify_all, evaluate, lines, tables, Statement};
use crate::{Error, Result};

/// `tenure-eval temporal`.
#[derive(Debug, Args)]
pub(crate) struct TemporalArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TemporalCommand,
}

/// `temporal` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum TemporalCommand {
    /// Print each statement's id, valid-time class (forward_open, current_state, closed,
    /// correction) and the marker that decided it.
    Classify(ClassifyArgs),
    /// Precision, recall and F1 per class, macro averages, the confusion matrix and the
    /// misclassified ids against the gold `class` of every line.
    Eval(EvalArgs),
    /// Draw statements from LoCoMo's dialog turns, BEAM's user messages, LiveChat's developer
    /// chat or the Slack channels by the documented random rule, as JSON Lines `{"id", "text"}` to label
    /// (docs/temporal.md, "Real utterances").
    Draw(DrawArgs),
    /// Each statement's features for the learned model, as JSON Lines `{"id", "class",
    /// "buckets", "features"}` (and `"embedding"` with --embedder): the buckets (and
    /// embeddings) are what `scripts/train-temporal.py` trains on (docs/temporal.md).
    Features(ClassifyFileArgs),
}

/// Where lines without a text (ids drawn by `temporal draw`) find it: LoCoMo's file, BEAM's
/// folder, LiveChat's or the Slack chats'. At most one (the group `texts`): a new source is one
/// field here and one arm in `read_statements`.
#[derive(Debug, Args)]
#[group(id = "texts", multiple = false)]
pub(crate) struct TextsArgs {
    /// LoCoMo's `locomo10.json`, for lines without a text (ids drawn by `temporal draw`).
    #[arg(long, value_name = "FILE")]
    pub locomo: Option<PathBuf>,
    /// BEAM's `chats/` folder, for lines without a text (ids drawn by `temporal draw --beam`).
    #[arg(long, value_name = "DIR")]
    pub beam: Option<PathBuf>,
    /// LiveChat's `data/manual/` folder, for lines without a text (ids drawn by `temporal
    /// draw --livechat`).
    #[arg(long, value_name = "DIR")]
    pub livechat: Option<PathBuf>,
    /// The Slack chats' `data/` folder, for lines without a text (ids drawn by `temporal draw
    /// --slack`).
    #[arg(long, value_name = "DIR")]
    pub slack: Option<PathBuf>,
}

/// `--embedder DIR [--ort-lib FILE]`: classify with the embedded model (docs/temporal.md, "The
/// fourth attempt").
#[derive(Debug, Args)]
pub(crate) struct EmbedderArgs {
    /// An ONNX model folder that embeds each statement. `classify` and `eval` then classify
    /// with the embedded model, whose learned part reads the sentence embedding beside the
    /// features: DIR must be the folder its weights were trained with, all-MiniLM-L6-v2
    /// (`models/all-minilm-l6-v2`, by scripts/setup-models.sh; another graph, tokenizer or
    /// embedder.json is refused). `features` adds each line's `embedding` (any folder).
    /// Without it, the compiled-in lexical model classifies.
    #[arg(long, value_name = "DIR")]
    pub embedder: Option<PathBuf>,
    /// ONNX Runtime library for --embedder (else ORT_DYLIB_PATH).
    #[arg(long, value_name = "FILE", requires = "embedder", value_parser = crate::cli::args::ort_library)]
    pub ort_lib: Option<PathBuf>,
}

impl EmbedderArgs {
    fn choice(&self) -> Option<EmbedderChoice> {
        self.embedder.as_ref().map(|dir| EmbedderChoice {
            dir: dir.clone(),
            ort_lib: self.ort_lib.clone(),
        })
    }
}

/// A statements file, and the benchmark's files (LoCoMo's, BEAM's, LiveChat's or the Slack
/// chats') for lines without a text.
#[derive(Debug, Args)]
pub(crate) struct ClassifyFileArgs {
    /// JSON Lines `{"id", "text"[, "class"]}`; `-` reads stdin.
    pub file: PathBuf,
    /// Where texts are read.
    #[command(flatten)]
    pub texts: TextsArgs,
    /// With `--embedder`, each line's `embedding` too: what the embedded model reads (the
    /// training script's input), by any model folder.
    #[command(flatten)]
    pub embedder: EmbedderArgs,
}

/// `temporal classify`.
#[derive(Debug, Args)]
pub(crate) struct ClassifyArgs {
    /// JSON Lines `{"id", "text"[, "class"]}`; `-` reads stdin.
    pub file: PathBuf,
    /// Where texts are read.
    #[command(flatten)]
    pub texts: TextsArgs,
    /// The embedded model.
    #[command(flatten)]
    pub embedder: EmbedderArgs,
    /// `tsv`: id, class, marker (`-` for none); `json`: an array of {id, class, marker, source}.
    #[arg(long, default_value = "tsv", value_parser = only(&[OutputFormat::Tsv, OutputFormat::Json]))]
    pub format: OutputFormat,
}

/// `temporal eval`.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// JSON Lines `{"id", "text", "class"}`; `-` reads stdin.
    pub file: PathBuf,
    /// Where texts are read.
    #[command(flatten)]
    pub texts: TextsArgs,
    /// Score another labelling of the same ids instead of the classifier: its classes are the
    /// predictions (two annotators' agreement, Cohen's κ among the figures, or another
    /// classifier's output). No text is read.
    // Each source named, not the group: clap then names the one given, where a group would
    // list all four.
    #[arg(long, value_name = "SECOND", conflicts_with_all = ["locomo", "beam", "livechat", "slack", "embedder"])]
    pub predicted: Option<PathBuf>,
    /// The embedded model.
    #[command(flatten)]
    pub embedder: EmbedderArgs,
    /// Output format: the tables (per class with the macro averages, the confusion matrix, the
    /// misclassified statements) as markdown, CSV or LaTeX, or the evaluation as JSON.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
}

/// `temporal draw`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("from").required(true).args(["locomo", "beam", "livechat", "slack"]))]
pub(crate) struct DrawArgs {
    /// LoCoMo's released `locomo10.json`: draw from its dialog turns.
    #[arg(long, value_name = "FILE")]
    pub locomo: Option<PathBuf>,
    /// BEAM's `chats/` folder: draw from the 100K tier's user messages (docs/temporal.md,
    /// "Real utterances from BEAM").
    #[arg(long, value_name = "DIR")]
    pub beam: Option<PathBuf>,
    /// LiveChat's `data/manual/` folder (the LiveChat2021/LiveChat repository): draw from its
    /// eight Gitter rooms, held out whole, so without `--part` (docs/temporal.md, "Developer
    /// chat: a domain never seen").
    #[arg(long, value_name = "DIR")]
    pub livechat: Option<PathBuf>,
    /// The Slack chats' `data/` folder (the
    /// preethac/Software-related-Slack-Chats-with-Disentangled-Conversations repository): draw
    /// from three channels' 2019 files, held out whole, so without `--part` (docs/temporal.md,
    /// "Slack: a source never seen").
    #[arg(long, value_name = "DIR")]
    pub slack: Option<PathBuf>,
    /// `dev`: LoCoMo's first five samples, BEAM's chats 1-10; `test`: LoCoMo's last five,
    /// BEAM's chats 11-20. Required with --locomo and --beam.
    #[arg(
        long,
        value_enum,
        conflicts_with_all = ["livechat", "slack"],
        required_unless_present_any = ["livechat", "slack"]
    )]
    pub part: Option<PartArg>,
    /// How many statements to draw.
    #[arg(long, value_name = "N", value_parser = crate::cli::remote::at_least_one)]
    pub n: usize,
    /// The ChaCha8 seed of the draw.
    #[arg(long, default_value_t = 34)]
    pub seed: u64,
}

/// Run a `temporal` subcommand.
pub(crate) fn run(args: TemporalArgs) -> Result<ExitCode> {
    match args.command {
        TemporalCommand::Classify(a) => classify(a),
        TemporalCommand::Eval(a) => eval(a),
        TemporalCommand::Draw(a) => draw(a),
        TemporalCommand::Features(a) => features(a),
    }
}

/// BEAM's tier the statements are drawn from (files that are not BEAM's release are said).
fn beam_suite(data: &Path) -> Result<crate::suite::Suite> {
    let tier = crate::study::temporal::beam::TIER.to_string();
    crate::cli::args::load_beam(data, vec![tier])
}

/// The bytes of `path` and the name messages give it (`-` is stdin, named `<stdin>`).
fn read_input(path: &Path) -> Result<(PathBuf, Vec<u8>)> {
    let bytes = crate::io::read_bytes(path)?;
    let name = if path.as_os_str() == "-" {
        PathBuf::from("<stdin>")
    } else {
        path.to_path_buf()
    };
    Ok((name, bytes))
}

/// The statements of `path` (`-` is stdin, named `<stdin>` in messages), lines without a text
/// read from the source named (clap allows one); without one, a line with no text is an input
/// error.
fn read_statements(path: &Path, texts: &TextsArgs) -> Result<(PathBuf, Vec<Statement>)> {
    let (path, bytes) = read_input(path)?;
    // BEAM's tier is loaded only when a line needs its text.
    let load_beam = texts.beam.as_deref().map(|dir| move || beam_suite(dir));
    let from = if let Some(locomo) = &texts.locomo {
        TextsFrom::Locomo(locomo.clone())
    } else if let Some(load) = &load_beam {
        TextsFrom::Beam(load)
    } else if let Some(dir) = &texts.livechat {
        TextsFrom::LiveChat(dir.clone())
    } else if let Some(dir) = &texts.slack {
        TextsFrom::Slack(dir.clone())
    } else {
        TextsFrom::Nowhere
    };
    let (statements, unreleased) = read_statements_from(&path, &bytes, from)?;
    // Said as every command reading a benchmark says it.
    if let Some(label) = unreleased {
        crate::cli::args::say_not_released(label);
    }
    Ok((path, statements))
}

fn classify(args: ClassifyArgs) -> Result<ExitCode> {
    let (path, statements) = read_statements(&args.file, &args.texts)?;
    crate::study::temporal::texts::none_given(&path, &statements, "temporal classify")?;
    let classified = classify_all(&statements, args.embedder.choice().as_ref())?;
    let out = match args.format {
        OutputFormat::Tsv => lines::classified_tsv(&statements, &classified),
        _ => lines::classified_json(&statements, &classified)?,
    };
    crate::cli::write_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn eval(args: EvalArgs) -> Result<ExitCode> {
    let (path, statements) = match &args.predicted {
        Some(second) => {
            let (path, first) = read_input(&args.file)?;
            let (second, given) = read_input(second)?;
            // A path given twice (or a copy) is scored against itself: κ 1.000 by construction,
            // read as perfect agreement (a ninth audit). Said, as the report commands say it.
            if first == given {
                say!(
                    "warning: {} holds the same bytes as {} (the same file, or a copy?): its \
                     labels are scored against themselves, in agreement by construction",
                    second.display(),
                    path.display()
                );
            }
            let statements =
                crate::study::temporal::texts::with_predictions(&path, &first, &second, &given)?;
            (path, statements)
        }
        None => read_statements(&args.file, &args.texts)?,
    };
    let evaluation = evaluate(&path, &statements, args.embedder.choice().as_ref())?;
    let out = match args.format {
        OutputFormat::Json => lines::pretty(&evaluation)?,
        other => render(&tables(&evaluation), other.table()),
    };
    crate::cli::write_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn draw(args: DrawArgs) -> Result<ExitCode> {
    use crate::study::temporal::{beam, livechat, slack};
    let part = args.part.map(|p| match p {
        PartArg::Dev => Part::Dev,
        PartArg::Test => Part::Test,
    });
    // clap requires one source and --part with LoCoMo and BEAM (and refuses it with LiveChat
    // and Slack).
    // Each with the source's label when its files are not the release (BEAM's loader says its
    // own).
    let (drawn, unreleased) = match (&args.locomo, &args.beam, &args.livechat, &args.slack, part) {
        (Some(locomo), _, _, _, Some(part)) => {
            let (turns, released) = crate::suite::locomo::turns(locomo)?;
            let drawn = draw::draw(&turns, part, args.n, args.seed)?;
            (drawn, (!released).then_some("locomo"))
        }
        (None, Some(dir), _, _, Some(part)) => (
            beam::draw(&beam_suite(dir)?, part, args.n, args.seed)?,
            None,
        ),
        (None, None, Some(dir), _, None) => {
            let (turns, released) = livechat::turns(dir)?;
            let drawn = livechat::draw(&turns, args.n, args.seed)?;
            (drawn, (!released).then_some("livechat"))
        }
        (None, None, None, Some(dir), None) => {
            let (turns, released) = slack::turns(dir)?;
            (
                slack::draw(&turns, args.n, args.seed)?,
                (!released).then_some("slack"),
            )
        }
        _ => {
            return Err(Error::Usage(
                "temporal draw: name the source, --locomo FILE --part P, --beam DIR --part P, \
                 --livechat DIR or --slack DIR"
                    .into(),
            ))
        }
    };
    if let Some(label) = unreleased {
        crate::cli::args::say_not_released(label);
    }
    crate::cli::write_stdout(&lines::statements_jsonl(&drawn)?)?;
    Ok(ExitCode::SUCCESS)
}

fn features(args: ClassifyFileArgs) -> Result<ExitCode> {
    let (path, statements) = read_statements(&args.file, &args.texts)?;
    crate::study::temporal::texts::none_given(&path, &statements, "temporal features")?;
    let text = crate::study::temporal::features(&statements, args.embedder.choice().as_ref())?;
    crate::cli::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
