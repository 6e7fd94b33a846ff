//! The flags of every command that runs scripts: what one command may spend, `--max-operations`, `--time-limit` and `--max-memory`.

use std::time::Duration;

use clap::Args;

use crate::script::Limits;

/// The most operations a command may be given: at about ten million a second, hours of work.
pub const MAX_OPERATIONS: u64 = 1_000_000_000_000;

/// The most memory a command may be given, in MiB: a tebibyte.
const MAX_MEBIBYTES: u64 = 1 << 20;

/// The longest time limit a command may be given: a week.
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

#[derive(Debug, Args, Clone, Copy, Default)]
pub struct LimitFlags {
    /// Operations a script may spend before it is stopped: in one `eval`, one REPL line, one
    /// trial of `run`, or one whole `odds` walk [default: 2000000; for `odds`: 200000000].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_OPERATIONS))]
    pub max_operations: Option<u64>,
    /// Seconds by the clock a script may take before it is stopped, counted as
    /// `--max-operations` is [default: 120; for `odds`: 20].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Memory in MiB a script may grow by before it is stopped, counted as it grows and as
    /// `--max-operations` is: values it builds, and an `odds` walk's own states [default: 1024].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=MAX_MEBIBYTES))]
    pub max_memory: Option<u64>,
}

impl LimitFlags {
    /// `defaults`, with what the flags say instead.
    pub fn over(&self, defaults: Limits) -> Limits {
        Limits {
            max_operations: self.max_operations.unwrap_or(defaults.max_operations),
            time_limit: self.time_limit.or(defaults.time_limit),
            max_memory: self.max_memory.map_or(defaults.max_memory, |mib| (mib as usize).saturating_mul(1 << 20)),
            ..defaults
        }
    }

    /// A host of `ruleset` whose `odds` walks run within what the flags say (the walk's own
    /// defaults otherwise): what `odds`, `compare` and `run --exact` build.
    pub fn walking_host(&self, ruleset: crate::rules::Ruleset) -> Result<crate::script::Host, crate::rules::Problems> {
        let host = crate::script::Host::new(ruleset).map_err(crate::rules::Problems)?;
        let walk = self.over(host.walk_limits());
        host.set_walk_limits(walk);
        Ok(host)
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= MAX_SECONDS) {
        return Err(format!("a time limit is more than 0 and at most {MAX_SECONDS} seconds (a week)"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_range_checked() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("0").unwrap_err().contains("more than 0"));
        assert!(parse_seconds("-3").is_err());
        assert!(parse_seconds("NaN").is_err());
        assert!(parse_seconds("1e9").is_err());
        assert!(parse_seconds("soon").unwrap_err().contains("not a number"));
    }
}
