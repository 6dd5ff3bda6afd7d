//! A count of an empty board split into shards: deterministic, disjoint work units that can
//! run as separate processes (on a cluster scheduler, say), each writing a self-describing
//! record, and the checked sum of the records.
//!
//! Shard `i` of `k` counts the `i`-th of `k` consecutive, equal pieces of the work units of
//! [`band::Plan`] (the row sets of every band configuration), so the `k` shards cover every
//! placement exactly once for any `k` (shards beyond the number of units are empty). Sides
//! the band does not count (below [`band::MIN_N`] or above [`band::MAX_N`]) are one unit:
//! shard 0 counts everything.
//!
//! The band of a count split into shards is chosen for the number of shards
//! ([`band::Plan::for_shards`]): narrower sides when the default band has too few
//! configurations for the shards to hold whole ones. Each shard lists only the
//! configurations it counts.
//!
//! A [`Record`] carries the board side, the shard, the band's sides, the count, its residue
//! (the same count summed apart modulo 2^61 - 1, [`band::Tally`]), the CPU time, the
//! program's version and a check over its fields, so that [`merge`] can tell a missing,
//! repeated, foreign, altered or overflowed record from a good one.
//!
//! ```
//! use chess_puzzles::nqueens::{shard, Control};
//!
//! let records: Vec<shard::Record> = (0..3)
//!     .map(|i| {
//!         let spec = shard::Spec::new(i, 3).unwrap();
//!         let counted = shard::count(10, spec, &Control::new()).unwrap();
//!         shard::Record::new(10, spec, counted, 0.0)
//!     })
//!     .collect();
//! let text: String = records.iter().map(|r| r.to_json_line()).collect();
//! let merged = shard::merge([("shards.jsonl", text.as_bytes())]).unwrap();
//! assert_eq!(merged.map(|m| m.count), Ok(724));
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::band::{RESIDUE_MODULUS, Tally};
use super::control::Control;
use super::problem::MAX_N;
use super::{band, count_all};

/// The most shards a count may be split into.
pub const MAX_SHARDS: u64 = 1_000_000_000;

/// The longest line of a record file (records are about 200 bytes).
pub const MAX_LINE: usize = 1 << 16;

/// The version written into every record: shards of different versions may cut the work
/// differently, so they are never merged together.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Shard `index` of `shards`, `0 <= index < shards <= MAX_SHARDS`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Spec {
    index: u64,
    shards: u64,
}

impl Spec {
    /// Shard `index` of `shards`, if `index < shards <= MAX_SHARDS`.
    pub fn new(index: u64, shards: u64) -> Result<Spec, SpecError> {
        if shards == 0 || shards > MAX_SHARDS {
            return Err(SpecError::Shards(shards));
        }
        if index >= shards {
            return Err(SpecError::Index { index, shards });
        }
        Ok(Spec { index, shards })
    }

    /// The shard's number, from 0.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The number of shards.
    pub fn shards(&self) -> u64 {
        self.shards
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.shards)
    }
}

/// Why `--shard` was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// Not two whole numbers separated by a slash.
    #[error("expected I/K (shard I of K, e.g. 3/16), found '{0}'")]
    Syntax(String),
    /// The number of shards is 0 or too large.
    #[error("expected a number of shards 1..{MAX_SHARDS}, found {0}")]
    Shards(u64),
    /// A number too large for any shard (more digits than 64 bits hold).
    #[error("expected numbers up to {MAX_SHARDS}, found {0}")]
    TooLarge(String),
    /// The shard's number is not below the number of shards.
    #[error("expected a shard number 0..{} (shards count from 0), found {index}", .shards - 1)]
    Index {
        /// The shard asked for.
        index: u64,
        /// The number of shards.
        shards: u64,
    },
}

/// Reads `I/K`.
impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Spec, SpecError> {
        let syntax = || SpecError::Syntax(s.to_string());
        let (i, k) = s.split_once('/').ok_or_else(syntax)?;
        let number = |t: &str| {
            let t = t.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // Digits beyond u64 are out of range, not malformed.
            t.parse::<u64>()
                .map_err(|_| SpecError::TooLarge(t.to_string()))
        };
        Spec::new(number(i)?, number(k)?)
    }
}

/// What a shard counted: its placements with their residue, and the band's sides.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Counted {
    /// The placements, and their residue.
    pub tally: Tally,
    /// The columns of each side of the band the count was split by (0: not split, the
    /// side was counted whole by shard 0).
    pub side: u64,
}

/// The number of placements of `n` non-attacking queens on an empty board in shard `spec`;
/// `None` when `control` said stop. Counts on the current rayon pool.
pub fn count(n: usize, spec: Spec, control: &Control) -> Option<Counted> {
    match band::Band::default_for(n) {
        Some(_) => {
            let plan = band::Plan::for_shards(n, spec.shards, control)?;
            let tally = plan.count(plan.shard(spec.index, spec.shards), control)?;
            Some(Counted {
                tally,
                side: plan.band().side() as u64,
            })
        }
        None => {
            let count = if spec.index == 0 {
                count_all::count(n, control)?
            } else {
                0
            };
            let residue = (count % u128::from(RESIDUE_MODULUS)) as u64;
            Some(Counted {
                tally: Tally { count, residue },
                side: 0,
            })
        }
    }
}

/// The placements of shard `spec` of an empty board of side `n`, counted on `gpu`, with the
/// band's sides: the same units as [`count`]'s, so its record merges with the CPU's; and what
/// the GPU did. `None` when `control` said stop; an error for a side the GPU does not count
/// ([`gpu::MIN_N`](super::gpu::MIN_N) to [`gpu::MAX_N`](super::gpu::MAX_N)) or a failing
/// device.
#[cfg(feature = "gpu")]
pub fn count_on_gpu(
    n: usize,
    spec: Spec,
    gpu: &super::gpu::Gpu,
    control: &Control,
) -> Result<(Option<Counted>, super::gpu::Stats), super::gpu::GpuError> {
    let plan = match band::Plan::for_shards(n, spec.shards, control) {
        Some(plan) => plan,
        None if band::Band::default_for(n).is_none() => {
            return Err(super::gpu::GpuError::Unsupported(n));
        }
        None => return Ok((None, super::gpu::Stats::default())),
    };
    let (tally, stats) =
        gpu.count_with_stats(&plan, plan.shard(spec.index, spec.shards), control)?;
    let counted = tally.map(|tally| Counted {
        tally,
        side: plan.band().side() as u64,
    });
    Ok((counted, stats))
}

/// One shard's result, as written by `nqueens count N --shard I/K --format json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The board side.
    pub n: u64,
    /// The given queens: always none (shards count empty boards).
    pub given: Vec<[u64; 2]>,
    /// The shard's number, from 0.
    pub shard: u64,
    /// The number of shards.
    pub shards: u64,
    /// The columns of each side of the band the count was split by (0: none).
    pub side: u64,
    /// The placements counted.
    pub count: u128,
    /// The placements counted modulo 2^61 - 1, summed apart from the count.
    pub residue: u64,
    /// The CPU time the shard took, in seconds.
    pub cpu_seconds: f64,
    /// The GPU that counted it (its adapter's name and interface, `"NVIDIA H200 (Vulkan)"`);
    /// absent for a count on the CPU. Shards of one count merge whichever device counted
    /// them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// The version of the program that counted it.
    pub version: String,
    /// A check over the other fields (but the CPU time): 16 hexadecimal digits.
    pub check: String,
}

impl Record {
    /// The record of shard `spec` of side `n` that counted `counted`.
    pub fn new(n: usize, spec: Spec, counted: Counted, cpu_seconds: f64) -> Record {
        let mut record = Record {
            n: n as u64,
            given: Vec::new(),
            shard: spec.index,
            shards: spec.shards,
            side: counted.side,
            count: counted.tally.count,
            residue: counted.tally.residue,
            // Microseconds are plenty, and keep the record short.
            cpu_seconds: (cpu_seconds * 1e6).round() / 1e6,
            device: None,
            version: VERSION.to_string(),
            check: String::new(),
        };
        record.check = record.expected_check();
        record
    }

    /// The record, marked as counted on the GPU `device` (its check made again).
    pub fn on_device(mut self, device: impl Into<String>) -> Record {
        self.device = Some(device.into());
        self.check = self.expected_check();
        self
    }

    /// The check its fields call for: FNV-1a (64 bits) of a canonical line.
    pub fn expected_check(&self) -> String {
        let mut line = format!(
            "chess-puzzles nqueens shard v2 n={} given={:?} shard={}/{} side={} count={} \
             residue={} version={}",
            self.n,
            self.given,
            self.shard,
            self.shards,
            self.side,
            self.count,
            self.residue,
            self.version
        );
        if let Some(device) = &self.device {
            line.push_str(&format!(" device={device:?}"));
        }
        let hash = line.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("{hash:016x}")
    }

    /// The record as one line of JSON.
    pub fn to_json_line(&self) -> String {
        // A record of plain numbers and strings always serialises.
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }
}

/// The checked sum of a complete set of shard records.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The board side.
    pub n: u64,
    /// The number of shards.
    pub shards: u64,
    /// The total count.
    pub count: u128,
    /// The CPU time of all shards, in seconds.
    pub cpu_seconds: f64,
}

/// Why records could not be read at all (exit code 2 on the command line).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// A file could not be read.
    #[error("{name}: cannot read: {error}")]
    Io {
        /// The file's name.
        name: String,
        /// What went wrong.
        error: io::Error,
    },
    /// A line is not a record.
    #[error(
        "{name}:{line}:{column}: expected a shard record (one JSON object per line, as \
             `nqueens count N --shard I/K --format json` writes), {found}"
    )]
    Syntax {
        /// The file's name.
        name: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What was found instead.
        found: String,
    },
}

/// Where a record came from.
#[derive(Clone, Debug)]
struct Origin {
    name: String,
    line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.name, self.line)
    }
}

/// The most problems [`merge`] lists.
const MAX_PROBLEMS: usize = 20;

/// The records of one input of `nqueens merge` (named `name` in errors): one JSON object a
/// line, blank lines skipped, none longer than [`MAX_LINE`] bytes, each with its line number;
/// a line that cannot be read or is not a record ends the input with its error.
pub(super) struct Records<R, T> {
    name: String,
    reader: BufReader<R>,
    buffer: Vec<u8>,
    line: usize,
    ended: bool,
    record: std::marker::PhantomData<T>,
}

impl<R: Read, T> Records<R, T> {
    pub(super) fn new(name: &str, reader: R) -> Records<R, T> {
        Records {
            name: name.to_string(),
            reader: BufReader::new(reader),
            buffer: Vec::new(),
            line: 0,
            ended: false,
            record: std::marker::PhantomData,
        }
    }

    fn fail(&mut self, error: MergeError) -> Option<Result<(T, usize), MergeError>> {
        self.ended = true;
        Some(Err(error))
    }
}

impl<R: Read, T: serde::de::DeserializeOwned> Iterator for Records<R, T> {
    type Item = Result<(T, usize), MergeError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.ended {
            self.buffer.clear();
            self.line += 1;
            let read = self
                .reader
                .by_ref()
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut self.buffer);
            let (name, line) = (self.name.clone(), self.line);
            match read {
                Err(error) => return self.fail(MergeError::Io { name, error }),
                Ok(0) => self.ended = true,
                Ok(_) if self.buffer.len() > MAX_LINE => {
                    return self.fail(MergeError::Syntax {
                        name,
                        line,
                        column: MAX_LINE + 1,
                        found: format!("a line longer than {MAX_LINE} bytes"),
                    });
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&self.buffer);
                    if text.trim().is_empty() {
                        continue;
                    }
                    let parsed: Result<T, _> = serde_json::from_str(text.trim_end());
                    return match parsed {
                        Ok(record) => Some(Ok((record, line))),
                        Err(e) => self.fail(MergeError::Syntax {
                            name,
                            line,
                            column: e.column().max(1),
                            found: found_serde(&e),
                        }),
                    };
                }
            }
        }
        None
    }
}

/// What a line that is not a record holds, as an error says it: serde's message without its
/// own position, which the error gives separately.
pub(super) fn found_serde(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let cut = message.rfind(" at line ").unwrap_or(message.len());
    format!("found {}", &message[..cut])
}

/// Reads the records of every input (`(name, reader)`; empty lines are skipped) and sums
/// them. `Ok(Ok(merged))` when exactly the shards `0..K` of one count are there, once each,
/// intact; `Ok(Err(problems))` naming each missing, repeated, foreign or corrupted record
/// (at most `MAX_PROBLEMS` lines) otherwise; `Err` when an input is unreadable or a line is
/// not a record.
pub fn merge<R: Read>(
    inputs: impl IntoIterator<Item = (impl Into<String>, R)>,
) -> Result<Result<Merged, Vec<String>>, MergeError> {
    let mut first: Option<(Record, Origin)> = None;
    let mut seen: HashMap<u64, Origin> = HashMap::new();
    let mut problems = Vec::new();
    let mut total = 0u128;
    let mut overflowed = false;
    let mut cpu = 0.0;
    for (name, reader) in inputs {
        let name: String = name.into();
        for item in Records::<_, Record>::new(&name, reader) {
            let (record, line) = item?;
            let origin = Origin {
                name: name.clone(),
                line,
            };
            if record.check != record.expected_check() {
                problems.push(format!(
                    "{origin}: corrupted record: its check {} does not match its fields \
                     (shard {}/{}, count {})",
                    record.check, record.shard, record.shards, record.count
                ));
                continue;
            }
            if let Some(problem) = nonsense(&record) {
                problems.push(format!("{origin}: corrupted record: {problem}"));
                continue;
            }
            if let Some((head, head_origin)) = &first
                && (
                    record.n,
                    record.shards,
                    record.side,
                    &record.version,
                    &record.given,
                ) != (head.n, head.shards, head.side, &head.version, &head.given)
            {
                problems.push(format!(
                    "{origin}: foreign record: n = {}, {} shards, sides of {}, version {}; the \
                     first record ({head_origin}) has n = {}, {} shards, sides of {}, version {}",
                    record.n,
                    record.shards,
                    record.side,
                    record.version,
                    head.n,
                    head.shards,
                    head.side,
                    head.version
                ));
                continue;
            }
            if first.is_none() {
                first = Some((record.clone(), origin.clone()));
            }
            if accept(&record, &origin, &mut seen, &mut problems) {
                match total.checked_add(record.count) {
                    Some(sum) => total = sum,
                    None if !overflowed => {
                        overflowed = true;
                        problems.push(format!(
                            "{origin}: the total overflows 128 bits when this record's count {} \
                             is added to the {total} of the records before it",
                            record.count
                        ));
                    }
                    None => {}
                }
                cpu += record.cpu_seconds;
            }
        }
    }
    let Some((head, _)) = first else {
        problems.push("no shard record in the input".to_string());
        return Ok(Err(problems));
    };
    let missing = head.shards - seen.len() as u64;
    if missing > 0 {
        let mut list = Vec::new();
        for i in 0..head.shards {
            if !seen.contains_key(&i) {
                list.push(i.to_string());
                if list.len() == 10 {
                    break;
                }
            }
        }
        let more = if missing > list.len() as u64 {
            ", ..."
        } else {
            ""
        };
        problems.push(format!(
            "missing {missing} of {} shards: {}{more}",
            head.shards,
            list.join(", ")
        ));
    }
    if problems.is_empty() {
        Ok(Ok(Merged {
            n: head.n,
            shards: head.shards,
            count: total,
            cpu_seconds: cpu,
        }))
    } else {
        problems.truncate(MAX_PROBLEMS);
        Ok(Err(problems))
    }
}

/// The most CPU time a record may claim, in seconds (about 31,700 years): more is nonsense,
/// and a sum of a billion records stays finite.
pub const MAX_CPU_SECONDS: f64 = 1e12;

/// What makes a record's fields meaningless, if anything: a side no count has, a count that
/// does not match its residue, a CPU time that is not a number of seconds.
fn nonsense(record: &Record) -> Option<String> {
    if record.n == 0 || record.n > MAX_N as u64 {
        return Some(format!("a board side {}, not 1..{MAX_N}", record.n));
    }
    if record.side > record.n / 2 {
        return Some(format!(
            "sides of {} columns on a board of {}",
            record.side, record.n
        ));
    }
    if record.residue >= RESIDUE_MODULUS
        || record.count % u128::from(RESIDUE_MODULUS) != u128::from(record.residue)
    {
        return Some(format!(
            "its count {} does not match its residue {} (modulo 2^61 - 1): the count \
             overflowed or was altered",
            record.count, record.residue
        ));
    }
    if !(0.0..=MAX_CPU_SECONDS).contains(&record.cpu_seconds) {
        return Some(format!(
            "a CPU time of {} s, not 0..{MAX_CPU_SECONDS:e} s",
            record.cpu_seconds
        ));
    }
    None
}

/// Takes note of a record of the right count; false (with a problem) if it cannot be added.
fn accept(
    record: &Record,
    origin: &Origin,
    seen: &mut HashMap<u64, Origin>,
    problems: &mut Vec<String>,
) -> bool {
    if record.shards == 0 || record.shards > MAX_SHARDS || record.shard >= record.shards {
        problems.push(format!(
            "{origin}: corrupted record: shard {} of {} does not exist",
            record.shard, record.shards
        ));
        return false;
    }
    if !record.given.is_empty() {
        problems.push(format!("{origin}: foreign record: it has given queens"));
        return false;
    }
    if let Some(before) = seen.get(&record.shard) {
        problems.push(format!(
            "{origin}: repeated record: shard {} of {} is also at {before}",
            record.shard, record.shards
        ));
        return false;
    }
    seen.insert(record.shard, origin.clone());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(n: usize, shards: u64) -> Vec<Record> {
        (0..shards)
            .map(|i| {
                let spec = Spec::new(i, shards).unwrap();
                Record::new(n, spec, count(n, spec, &Control::new()).unwrap(), 0.5)
            })
            .collect()
    }

    fn text(records: &[Record]) -> String {
        records.iter().map(Record::to_json_line).collect()
    }

    fn merged(text: &str) -> Result<Merged, Vec<String>> {
        merge([("r.jsonl", text.as_bytes())]).unwrap()
    }

    #[test]
    fn specs_are_read_and_checked() {
        assert_eq!("3/16".parse::<Spec>(), Spec::new(3, 16));
        assert_eq!("0/1".parse::<Spec>().map(|s| s.shards()), Ok(1));
        assert!(matches!(
            "16/16".parse::<Spec>(),
            Err(SpecError::Index { .. })
        ));
        assert!(matches!("0/0".parse::<Spec>(), Err(SpecError::Shards(0))));
        assert!(matches!(
            "1/1000000001".parse::<Spec>(),
            Err(SpecError::Shards(_))
        ));
        // Too many digits for 64 bits: named as written.
        for big in ["1/99999999999999999999999", "18446744073709551616/1"] {
            let err = big.parse::<Spec>().unwrap_err();
            assert!(matches!(err, SpecError::TooLarge(_)), "{big}");
            let digits = big.split('/').find(|t| t.len() > 19).unwrap();
            assert!(err.to_string().ends_with(digits), "{err}");
        }
        for bad in ["", "3", "3/", "/3", "a/3", "3/b", "-1/3", "3/4/5", "1.5/3"] {
            assert!(
                matches!(bad.parse::<Spec>(), Err(SpecError::Syntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn shards_sum_to_the_count_for_every_side() {
        // OEIS A000170, n = 1..=12: inside and outside the band's range.
        let expected = [1u128, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14_200];
        for (i, &whole) in expected.iter().enumerate() {
            let n = i + 1;
            for shards in [1, 2, 5, 64] {
                let sum: u128 = records(n, shards).iter().map(|r| r.count).sum();
                assert_eq!(sum, whole, "n = {n}, {shards} shards");
            }
        }
    }

    #[test]
    fn merge_sums_a_complete_set_in_any_order() {
        let mut all = records(11, 7);
        all.reverse();
        let m = merged(&text(&all)).unwrap();
        assert_eq!((m.n, m.shards, m.count), (11, 7, 2680));
        assert!((m.cpu_seconds - 3.5).abs() < 1e-9);
        // Split over several inputs, with blank lines.
        let (a, b) = all.split_at(3);
        let (ta, tb) = (format!("\n{}\n", text(a)), text(b));
        let m = merge([("a", ta.as_bytes()), ("b", tb.as_bytes())]).unwrap();
        assert_eq!(m.map(|m| m.count), Ok(2680));
    }

    #[test]
    fn merge_names_missing_repeated_foreign_and_corrupted_records() {
        let all = records(10, 5);
        // Missing.
        let problems = merged(&text(&all[1..])).unwrap_err();
        assert_eq!(problems, ["missing 1 of 5 shards: 0"]);
        // Repeated.
        let mut twice = all.clone();
        twice.push(all[2].clone());
        let problems = merged(&text(&twice)).unwrap_err();
        assert!(
            problems[0].starts_with("r.jsonl:6: repeated record: shard 2 of 5"),
            "{problems:?}"
        );
        // Foreign: another side, another number of shards, another version.
        let mut foreign = all.clone();
        foreign.push(records(9, 5)[0].clone());
        let mut other = records(10, 4)[1].clone();
        other.version = "0.0.0".into();
        other.check = other.expected_check();
        foreign.push(other);
        let problems = merged(&text(&foreign)).unwrap_err();
        assert_eq!(problems.len(), 2);
        assert!(
            problems.iter().all(|p| p.contains("foreign record")),
            "{problems:?}"
        );
        // Corrupted: a count changed, the check left.
        let mut altered = all.clone();
        altered[3].count += 1;
        let problems = merged(&text(&altered)).unwrap_err();
        assert!(
            problems[0].starts_with("r.jsonl:4: corrupted record"),
            "{problems:?}"
        );
        // Nothing at all.
        assert_eq!(merged("\n").unwrap_err(), ["no shard record in the input"]);
    }

    #[test]
    fn unreadable_lines_are_located() {
        let good = text(&records(8, 2));
        for (bad, line) in [
            (format!("{good}not json\n"), 3),
            (format!("{{\"n\": 8}}\n{good}"), 1),
            (good.replacen("\"count\":", "\"count\":\"x", 1), 1),
            (format!("{good}{}\n", "x".repeat(MAX_LINE + 5)), 3),
        ] {
            match merge([("f", bad.as_bytes())]) {
                Err(MergeError::Syntax { line: l, .. }) => assert_eq!(l, line, "{bad:.60}"),
                other => panic!("{bad:.60}: {other:?}"),
            }
        }
    }

    /// A record of shard `index` of `shards` claiming `count`, with its residue and check.
    fn claiming(n: usize, index: u64, shards: u64, count: u128) -> Record {
        let residue = (count % u128::from(RESIDUE_MODULUS)) as u64;
        let counted = Counted {
            tally: Tally { count, residue },
            side: n as u64 / 2 - 2,
        };
        Record::new(n, Spec::new(index, shards).unwrap(), counted, 1.0)
    }

    #[test]
    fn counts_beyond_64_bits_round_trip() {
        let big = claiming(30, 0, 1, u128::from(u64::MAX) * 7);
        let back: Record = serde_json::from_str(big.to_json_line().trim()).unwrap();
        assert_eq!(back, big);
    }

    #[test]
    fn a_total_beyond_128_bits_is_refused() {
        // Two records of 2^127, each intact: their sum wraps to 0 in 128 bits.
        let both = [claiming(27, 0, 2, 1 << 127), claiming(27, 1, 2, 1 << 127)];
        let problems = merged(&text(&both)).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("r.jsonl:2: the total overflows 128 bits"),
            "{problems:?}"
        );
        // Below the limit the same records add up.
        let fine = [claiming(27, 0, 2, 1 << 126), claiming(27, 1, 2, 1 << 126)];
        assert_eq!(merged(&text(&fine)).map(|m| m.count), Ok(1 << 127));
    }

    #[test]
    fn records_with_meaningless_fields_are_refused() {
        let good = || claiming(12, 0, 1, 14_200);
        let mut cases: Vec<(Record, &str)> = Vec::new();
        let mut r = good();
        r.n = u64::MAX;
        cases.push((r, "a board side"));
        let mut r = good();
        r.n = 0;
        cases.push((r, "a board side"));
        let mut r = good();
        r.side = 7;
        cases.push((r, "sides of 7"));
        let mut r = good();
        r.count += 1;
        cases.push((r, "does not match its residue"));
        let mut r = good();
        r.residue = RESIDUE_MODULUS;
        cases.push((r, "does not match its residue"));
        for cpu in [-1.0, 1e300] {
            let mut r = good();
            r.cpu_seconds = cpu;
            cases.push((r, "a CPU time"));
        }
        for (mut record, expected) in cases {
            // Every field consistent with the check, as a program that writes records might.
            record.check = record.expected_check();
            let problems = merged(&text(&[record])).unwrap_err();
            assert!(
                problems[0].starts_with("r.jsonl:1: corrupted record")
                    && problems[0].contains(expected),
                "{problems:?}"
            );
        }
        assert_eq!(merged(&text(&[good()])).map(|m| m.count), Ok(14_200));
    }

    #[test]
    fn every_plan_of_the_shards_gives_the_same_count() {
        // Many shards narrow the band (sides of fewer columns, more configurations): every
        // number of shards must still add up to the whole count, and records say which band.
        let whole = [
            (12usize, 14_200u128),
            (13, 73_712),
            (14, 365_596),
            (16, 14_772_512),
        ];
        for (n, expected) in whole {
            let mut sides = Vec::new();
            for shards in [1u64, 3, 40, 700] {
                let all = records(n, shards);
                let sum: u128 = all.iter().map(|r| r.count).sum();
                assert_eq!(sum, expected, "n = {n}, {shards} shards");
                assert!(all.iter().all(|r| r.side == all[0].side && r.side >= 2));
                sides.push(all[0].side);
            }
            assert!(sides.windows(2).all(|w| w[0] >= w[1]), "n = {n}: {sides:?}");
            assert!(sides[0] > sides[3], "n = {n}: {sides:?}");
        }
    }
}
