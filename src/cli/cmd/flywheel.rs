//! `tenure-eval flywheel`: the alias-flywheel essay, measured (`src/flywheel/`,
//! `docs/flywheel.md`). Flags for every parameter of the user model; the tables on stdout.

use crate::cli::args::{figure_format, FigureFormatArg};
use crate::cli::backends::BeliefTextArg;
use crate::cli::format::{only, OutputFormat, MARKDOWN_JSON};
use crate::cli::progress::Progress;
use crate::cli::{json_text, write_stdout};
use crate::embed::BeliefText;
use crate::study::flywheel::job::{execute, markdown, FlywheelPlan, SWEEP};
use crate::study::flywheel::vector::VectorOptions;
use crate::study::flywheel::{Mechanisms, Params, Variant, DEFAULT_VARIANTS};
use crate::study::scale::parse_size;
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval flywheel`.
#[derive(Debug, Args)]
pub(crate) struct FlywheelArgs {
    /// Progress on stderr.
    #[command(flatten)]
    pub progress: crate::cli::progress::ProgressArg,
    /// Sessions simulated.
    #[arg(long, default_value_t = Params::default().sessions)]
    pub sessions: usize,
    /// Seed of every draw (same seed and flags: same JSON).
    #[arg(long, default_value_t = Params::default().seed)]
    pub seed: u64,
    /// Beliefs in the store before the first session.
    #[arg(long, default_value_t = Params::default().initial_beliefs)]
    pub initial_beliefs: usize,
    /// New beliefs per session.
    #[arg(long, default_value_t = Params::default().growth)]
    pub growth: usize,
    /// References (messages) per session.
    #[arg(long, default_value_t = Params::default().references)]
    pub references: usize,
    /// Probability that a new belief is about a tool the store already has a belief about.
    #[arg(long, default_value_t = Params::default().tool_reuse)]
    pub tool_reuse: f64,
    /// Surface forms the user has per belief, at most.
    #[arg(long, default_value_t = Params::default().forms)]
    pub forms: usize,
    /// Zipf exponent of form usage (the k-th form weighs 1/k^s).
    #[arg(long, default_value_t = Params::default().zipf)]
    pub zipf: f64,
    /// Zipf exponent of how often each belief is talked about.
    #[arg(long, default_value_t = Params::default().topic_skew)]
    pub topic_skew: f64,
    /// Probability that a form of a belief is shared with another belief of its category.
    #[arg(long, default_value_t = Params::default().collision)]
    pub collision: f64,
    /// Probability that the user clarifies a miss.
    #[arg(long, default_value_t = Params::default().clarify)]
    pub clarify: f64,
    /// Per session and belief, probability of a newly coined form (vocabulary drift).
    #[arg(long, default_value_t = Params::default().drift)]
    pub drift: f64,
    /// Per session, probability of a supersession (the user moves tools).
    #[arg(long, default_value_t = Params::default().supersede)]
    pub supersede: f64,
    /// Probability that a reference to a replacement names the old tool.
    #[arg(long, default_value_t = Params::default().old_form)]
    pub old_form: f64,
    /// Per session, probability that two overlapping beliefs merge (compaction).
    #[arg(long, default_value_t = Params::default().merge)]
    pub merge: f64,
    /// Probability that a message names its belief with two forms.
    #[arg(long, default_value_t = Params::default().second_form)]
    pub second_form: f64,
    /// Fewest aliases seeded at extraction.
    #[arg(long, default_value_t = Params::default().seed_min)]
    pub seed_min: usize,
    /// Most aliases seeded at extraction.
    #[arg(long, default_value_t = Params::default().seed_max)]
    pub seed_max: usize,
    /// Alias ceiling per belief.
    #[arg(long, default_value_t = Params::default().ceiling)]
    pub ceiling: usize,
    /// Results per search (the suites' maxBeliefs).
    #[arg(long, default_value_t = Params::default().limit)]
    pub limit: usize,
    /// BM25 minimum score.
    #[arg(long, default_value_t = Params::default().min_score)]
    pub min_score: f32,
    /// Mechanisms switched off in every variant: seeding, capture-hit, capture-miss, ceiling,
    /// counter-signals, union.
    #[arg(long, value_delimiter = ',')]
    pub off: Vec<String>,
    /// Variants, one line each in the figure: all, seed-only, `no-<mechanism>`.
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_VARIANTS)]
    pub variants: Vec<String>,
    /// Folder for the per-session JSON, the manifest, the cases and the claims.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Figure (`.svg`, `.png` or `.pdf`): coverage and precision per session, one line per
    /// variant.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// The figure's format; by default the one --plot's extension names, else SVG.
    #[arg(long, value_enum, requires = "plot")]
    pub plot_format: Option<FigureFormatArg>,
    /// Also run the vector side (claim C3): cosine with --model beside BM25 on growing stores.
    #[arg(long)]
    pub vector: bool,
    /// Embedding model of the vector side: an ONNX model folder, or ollama:NAME / openai:NAME.
    #[arg(long, requires = "vector", default_value = "models/all-minilm-l6-v2")]
    pub model: String,
    /// ONNX Runtime library (else ORT_DYLIB_PATH).
    #[arg(long, requires = "vector", value_parser = crate::cli::args::ort_library)]
    pub ort_lib: Option<PathBuf>,
    /// Folder of embedding stores (vectors found there are reused, none are written).
    #[arg(long, requires = "vector", default_value = "embeddings")]
    pub store_dir: PathBuf,
    /// Store sizes of the vector side (measured in size order; each once).
    #[arg(long, requires = "vector", value_delimiter = ',', default_value = "10,50,200,1000", value_parser = parse_size)]
    pub sizes: Vec<usize>,
    /// Similarity floors of the vector side, on Atlas's score (1 + cos) / 2.
    #[arg(
        long,
        requires = "vector",
        value_delimiter = ',',
        default_value = "0.8,0.85,0.9",
        value_parser = crate::cli::args::unit_f32
    )]
    pub floors: Vec<f32>,
    /// Queries per store size, at most.
    #[arg(long, requires = "vector", default_value_t = 200, value_parser = crate::cli::remote::at_least_one)]
    pub vector_queries: usize,
    /// Belief text embedded by the vector side.
    #[arg(long, requires = "vector", value_enum, default_value = "names")]
    pub belief_text: BeliefTextArg,
    /// Also run the sensitivity sweep (collision, tool reuse, clarify and drift rates, the store's
    /// starting size).
    #[arg(long)]
    pub sensitivity: bool,
    /// Sweep this parameter over these values instead (`collision=0,0.1,0.3`); repeatable.
    #[arg(long, conflicts_with = "sensitivity")]
    pub sweep: Vec<String>,
    /// What to print on stdout: markdown tables (claims, variants, vector side, sensitivity), or
    /// the claims as JSON.
    #[arg(long, default_value = "markdown", value_parser = only(MARKDOWN_JSON))]
    pub format: OutputFormat,
    /// No progress and no messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

impl FlywheelArgs {
    fn params(&self) -> Params {
        Params {
            sessions: self.sessions,
            seed: self.seed,
            initial_beliefs: self.initial_beliefs,
            growth: self.growth,
            references: self.references,
            tool_reuse: self.tool_reuse,
            forms: self.forms,
            zipf: self.zipf,
            topic_skew: self.topic_skew,
            collision: self.collision,
            clarify: self.clarify,
            drift: self.drift,
            supersede: self.supersede,
            old_form: self.old_form,
            merge: self.merge,
            second_form: self.second_form,
            seed_min: self.seed_min,
            seed_max: self.seed_max,
            ceiling: self.ceiling,
            limit: self.limit,
            min_score: self.min_score,
        }
    }

    fn plan(&self) -> Result<FlywheelPlan> {
        let params = self.params();
        params.check().map_err(Error::Usage)?;
        let mut base = Mechanisms::ALL;
        for name in &self.off {
            *base.switch(name).ok_or_else(|| {
                Error::Usage(format!(
                    "--off {name}: expected one of {}",
                    Mechanisms::NAMES.join(", ")
                ))
            })? = false;
        }
        // A size or a variant given twice ran twice and wrote one file over the other; the
        // sizes are measured in size order (C3 read the first given as the smallest store).
        let sizes: Vec<String> = self.sizes.iter().map(usize::to_string).collect();
        for (flag, list) in [("--sizes", &sizes), ("--variants", &self.variants)] {
            if let Some(value) = crate::cli::args::repeated(list) {
                return Err(Error::Usage(format!("{flag}: {value} is given twice")));
            }
        }
        // `--ort-lib` loads a model folder's runtime; with another model it was taken and
        // ignored (an audit: `--model hashed:64 --ort-lib /nonexistent`, exit 0).
        let folder = crate::embed::source::ModelKind::of(&self.model)
            == crate::embed::source::ModelKind::Folder;
        if self.ort_lib.is_some() && !folder {
            return Err(Error::Usage(format!(
                "--ort-lib applies to a model folder (--model DIR); --model {} is not one",
                self.model
            )));
        }
        let mut sizes = self.sizes.clone();
        sizes.sort_unstable();
        base.check(&params).map_err(Error::Usage)?;
        let parsed = self
            .variants
            .iter()
            .map(|v| Variant::parse(v, base))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(Error::Usage)?;
        // A variant that switches off what --off switched off everywhere is an earlier one
        // under another name: two identical lines (a fifteenth audit). Given, it is refused;
        // among the default variants it is left out, said.
        let mut variants: Vec<Variant> = Vec::new();
        for v in parsed {
            let Some(same) = variants.iter().find(|w| w.mechanisms == v.mechanisms) else {
                variants.push(v);
                continue;
            };
            let why = format!(
                "--variants {}: with --off {} it runs the mechanisms of {} (the same line)",
                v.name,
                self.off.join(","),
                same.name
            );
            if crate::cli::given::set("variants") {
                return Err(Error::Usage(why));
            }
            if !self.quiet {
                say!("note: {why}; left out");
            }
        }
        let sweep = if !self.sweep.is_empty() {
            let sweep: Vec<(String, Vec<f64>)> = self
                .sweep
                .iter()
                .map(|s| parse_sweep(s))
                .collect::<Result<_>>()?;
            // One parameter swept twice ran twice and was listed twice in the claims.
            let names: Vec<&String> = sweep.iter().map(|(n, _)| n).collect();
            if let Some(name) = crate::cli::args::repeated(&names) {
                return Err(Error::Usage(format!(
                    "--sweep {name} is given twice: give its values in one --sweep"
                )));
            }
            sweep
        } else if self.sensitivity {
            SWEEP
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_vec()))
                .collect()
        } else {
            Vec::new()
        };
        let vector = self.vector.then(|| VectorOptions {
            sizes,
            floors: self.floors.clone(),
            queries: self.vector_queries,
            model: self.model.clone(),
            belief_text: match self.belief_text {
                BeliefTextArg::Names => BeliefText::Names,
                BeliefTextArg::NamesContent => BeliefText::NamesContent,
            },
            ort_lib: self.ort_lib.clone(),
            store_dir: self.store_dir.clone(),
        });
        Ok(FlywheelPlan {
            params,
            base,
            variants,
            vector,
            sweep,
            out: self.out.clone(),
            plot: match &self.plot {
                Some(file) => Some((
                    file.clone(),
                    figure_format(self.plot_format, file, "--plot-format")?,
                )),
                None => None,
            },
        })
    }
}

/// `collision=0,0.1,0.3`.
fn parse_sweep(s: &str) -> Result<(String, Vec<f64>)> {
    let bad = || {
        Error::Usage(format!(
            "--sweep {s:?}: expected NAME=V1,V2,... such as collision=0,0.1"
        ))
    };
    let (name, values) = s.split_once('=').ok_or_else(bad)?;
    let values = values
        .split(',')
        .map(|v| v.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<Result<Vec<_>>>()?;
    Ok((name.trim().to_string(), values))
}

/// Run the study.
pub(crate) fn run(args: FlywheelArgs) -> Result<ExitCode> {
    let plan = args.plan()?;
    let mut progress = Progress::new(args.quiet, "flywheel");
    let result = execute(&plan, &mut progress)?;
    progress.finish();
    let text = match args.format {
        OutputFormat::Json => json_text(&result.claims),
        _ => markdown(&plan, &result),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
