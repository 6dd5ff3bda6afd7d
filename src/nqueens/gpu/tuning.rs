//! What a count on a GPU may be told from the environment: the kernels' choices that only a
//! GPU can settle ([`Tuning`], for a sitting that measures them without a rebuild), and
//! whether a software device may count.

use std::ffi::OsStr;

use super::GpuError;
use super::layout::{Tables, Tuning, Work};

/// The environment variable of the kernels' choices: a comma-separated list of
/// `name=value`, from `tables=strided|padded`, `work=stride|queue`, `checks=on|off`,
/// `workgroups=N` (1 to 65,535) and `items=N` (units a dispatch at most, 1 to 2^20); a name
/// left out keeps its default.
pub const TUNING_VARIABLE: &str = "CHESS_PUZZLES_GPU_TUNING";

/// The environment variable that sets the pairing kernel's workgroups alone (as
/// `workgroups=N` in [`TUNING_VARIABLE`], which wins where both are set).
pub const WORKGROUPS_VARIABLE: &str = "CHESS_PUZZLES_GPU_WORKGROUPS";

/// The environment variable that lets a software device (one that runs the kernels on the
/// CPU) count: `1`. Without it, or `--allow-software`, only a GPU counts.
pub const ALLOW_SOFTWARE_VARIABLE: &str = "CHESS_PUZZLES_GPU_ALLOW_SOFTWARE";

/// The most workgroups of the pairing kernel a dispatch may have.
pub const MOST_WORKGROUPS: usize = 65_535;

/// The most units a dispatch of the pairing kernel may hold.
pub const MOST_ITEMS: u32 = 1 << 20;

/// How a GPU is opened.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Options {
    /// Whether a software device may count (else only a GPU).
    pub allow_software: bool,
    /// The kernels' choices.
    pub tuning: Tuning,
}

impl Options {
    /// The options the environment gives: [`TUNING_VARIABLE`], [`WORKGROUPS_VARIABLE`] and
    /// [`ALLOW_SOFTWARE_VARIABLE`].
    pub fn from_env() -> Result<Options, GpuError> {
        let var = std::env::var_os;
        let mut tuning = Tuning::default();
        if let Some(value) = var(WORKGROUPS_VARIABLE) {
            tuning.workgroups =
                Some(number(WORKGROUPS_VARIABLE, &value, 1, MOST_WORKGROUPS as u64)? as usize);
        }
        if let Some(value) = var(TUNING_VARIABLE) {
            tuning = parse_tuning(&value, tuning)?;
        }
        let allow_software = match var(ALLOW_SOFTWARE_VARIABLE) {
            None => false,
            Some(v) if v == "1" => true,
            Some(v) if v == "0" || v.is_empty() => false,
            Some(v) => {
                return Err(GpuError::Setting(format!(
                    "{ALLOW_SOFTWARE_VARIABLE} must be 1 (a software device may count) or 0, \
                     found {v:?}"
                )));
            }
        };
        Ok(Options {
            allow_software,
            tuning,
        })
    }
}

/// A whole number from `low` to `high`, or an error naming `name`.
fn number(name: &str, value: &OsStr, low: u64, high: u64) -> Result<u64, GpuError> {
    match value.to_str().and_then(|v| v.trim().parse::<u64>().ok()) {
        Some(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(GpuError::Setting(format!(
            "{name} must be a whole number from {low} to {high}, found {value:?}"
        ))),
    }
}

/// The choices `value` (of [`TUNING_VARIABLE`]) makes, over `tuning`.
pub fn parse_tuning(value: &OsStr, mut tuning: Tuning) -> Result<Tuning, GpuError> {
    let bad = |what: String| GpuError::Setting(format!("{TUNING_VARIABLE}: {what}"));
    let Some(text) = value.to_str() else {
        return Err(bad(format!("not text: {value:?}")));
    };
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((name, choice)) = part.split_once('=') else {
            return Err(bad(format!(
                "expected name=value (tables, work, checks, workgroups, items), found {part:?}"
            )));
        };
        let (name, choice) = (name.trim(), choice.trim());
        let unknown = |choices: &str| bad(format!("{name} is one of {choices}, found {choice:?}"));
        match name {
            "tables" => {
                tuning.tables = match choice {
                    "strided" => Tables::Strided,
                    "padded" => Tables::Padded,
                    _ => return Err(unknown("strided, padded")),
                }
            }
            "work" => {
                tuning.work = match choice {
                    "stride" => Work::Stride,
                    "queue" => Work::Queue,
                    _ => return Err(unknown("stride, queue")),
                }
            }
            "checks" => {
                tuning.checks = match choice {
                    "on" => true,
                    "off" => false,
                    _ => return Err(unknown("on, off")),
                }
            }
            "workgroups" => {
                let n = number(
                    &format!("{TUNING_VARIABLE}: workgroups"),
                    OsStr::new(choice),
                    1,
                    MOST_WORKGROUPS as u64,
                )?;
                tuning.workgroups = Some(n as usize);
            }
            "items" => {
                let n = number(
                    &format!("{TUNING_VARIABLE}: items"),
                    OsStr::new(choice),
                    1,
                    u64::from(MOST_ITEMS),
                )?;
                tuning.items = Some(n as u32);
            }
            _ => {
                return Err(bad(format!(
                    "no setting {name:?}; the settings are tables, work, checks, workgroups, \
                     items"
                )));
            }
        }
    }
    Ok(tuning)
}

/// The choices of `tuning`, as [`TUNING_VARIABLE`] takes them (`--stats` names them).
pub fn describe(tuning: &Tuning) -> String {
    let mut parts = vec![
        format!(
            "tables={}",
            match tuning.tables {
                Tables::Strided => "strided",
                Tables::Padded => "padded",
            }
        ),
        format!(
            "work={}",
            match tuning.work {
                Work::Stride => "stride",
                Work::Queue => "queue",
            }
        ),
        format!("checks={}", if tuning.checks { "on" } else { "off" }),
    ];
    if let Some(w) = tuning.workgroups {
        parts.push(format!("workgroups={w}"));
    }
    if let Some(i) = tuning.items {
        parts.push(format!("items={i}"));
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_is_read_and_said_back() {
        let tuning = parse_tuning(
            OsStr::new("tables=strided, work=stride,checks=on,workgroups=7,items=100"),
            Tuning::default(),
        )
        .unwrap();
        assert_eq!(
            tuning,
            Tuning {
                tables: Tables::Strided,
                work: Work::Stride,
                checks: true,
                workgroups: Some(7),
                items: Some(100),
            }
        );
        assert_eq!(
            describe(&tuning),
            "tables=strided,work=stride,checks=on,workgroups=7,items=100"
        );
        let back = parse_tuning(OsStr::new(&describe(&tuning)), Tuning::default()).unwrap();
        assert_eq!(back, tuning);
        // Left out: the defaults.
        assert_eq!(
            parse_tuning(OsStr::new(""), Tuning::default()).unwrap(),
            Tuning::default()
        );
        assert_eq!(
            describe(&Tuning::default()),
            "tables=padded,work=queue,checks=off"
        );
    }

    #[test]
    fn a_choice_that_does_not_exist_is_refused_naming_the_choices() {
        for (value, names) in [
            ("tables=wide", "strided, padded"),
            ("work=steal", "stride, queue"),
            ("checks=maybe", "on, off"),
            ("workgroups=0", "1 to 65535"),
            ("items=2000000", "1 to 1048576"),
            ("colour=red", "tables, work, checks, workgroups, items"),
            ("tables", "name=value"),
        ] {
            let err = parse_tuning(OsStr::new(value), Tuning::default()).unwrap_err();
            let GpuError::Setting(message) = &err else {
                panic!("{value}: {err:?}")
            };
            assert!(message.contains(names), "{value}: {message}");
        }
    }
}
