//! Repeats the pmb session suite, for profilers (`valgrind --tool=callgrind`).
use tenure_eval::backend::BackendConfig;
use tenure_eval::run::{run_sessions, Silent};
use tenure_eval::suite::{Suite, SuiteSource};

fn main() {
    let suite = Suite::load(&SuiteSource::Builtin("pmb".into())).expect("built-in suite loads");
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let mut passed = 0;
    for _ in 0..n {
        passed += run_sessions(&suite, &BackendConfig::bm25(), &mut Silent)
            .expect("sessions run")
            .turns
            .iter()
            .filter(|t| t.passed())
            .count();
    }
    println!("{passed} turns passed over {n} runs");
}
