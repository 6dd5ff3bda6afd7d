//! The search for the first placement of an empty board split into shards: deterministic
//! work units that run as separate processes (the tasks of a cluster job array), each
//! writing a self-describing, resumable record, and the checked merge of the records into
//! the first placement.
//!
//! The placements are ordered by their prefixes: the rows of the first `depth` columns. The
//! *prefixes* are the ways of putting `depth` non-attacking queens on those columns such that
//! every later column still has a row open (a cheap, sound test: a prefix it removes has no
//! placement), numbered from 0 in lexicographic order ([`Prefixes`]). The first placement of
//! the board is the first placement of the first prefix that has one.
//!
//! Shard `i` of `k` takes the prefixes numbered `i`, `i + k`, `i + 2k`, ... in that order
//! (dealt round-robin, not cut into ranges: the first placement lies among the first
//! prefixes, so contiguous ranges would put the whole search into shard 0), and for each asks
//! the probe search of [`first`](super::first) for the first placement with that prefix (an
//! exhaustive "none" or the placement). It ends at its first prefix with a placement
//! (outcome `found`), or when it has no prefix left (`none`); stopped before, its record
//! says how many of its prefixes it refuted (`running`), and a shard started again from that
//! record goes on from there.
//!
//! [`merge_records`] takes the `k` records of one search: the answer is the placement of
//! the lowest-numbered prefix found, provided every prefix numbered below it was refuted
//! (each shard found or refuted its prefixes up to that number); when a shard has not got
//! that far, there is no answer yet, and the merge says which.
//!
//! ```
//! use chess_puzzles::nqueens::Control;
//! use chess_puzzles::nqueens::first_shard::{self, FirstSpec};
//! use chess_puzzles::nqueens::shard::Spec;
//!
//! let records: Vec<first_shard::FirstRecord> = (0..3)
//!     .map(|i| {
//!         let spec = FirstSpec::new(8, 2, Spec::new(i, 3).unwrap()).unwrap();
//!         let run = first_shard::search(&spec, 0, &Control::new(), |_| {});
//!         first_shard::FirstRecord::new(&spec, &run, 0.0)
//!     })
//!     .collect();
//! let text: String = records.iter().map(|r| r.to_json_line()).collect();
//! let merged = first_shard::merge_records([("r.jsonl", text.as_bytes())]).unwrap().unwrap();
//! assert_eq!(merged.rows, Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io::Read;

use serde::{Deserialize, Serialize};

use super::control::Control;
use super::first::First;
use super::shard::{MAX_CPU_SECONDS, MAX_SHARDS, MergeError, Records, Spec, VERSION, found_serde};
use crate::core::placements::{self, MAX_N};

/// The `search` field of every first-placement record (count records have none).
pub const SEARCH: &str = "first";

/// One shard of the first-placement search of an empty `n`x`n` board, its prefixes of
/// `depth` columns.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct FirstSpec {
    n: usize,
    depth: usize,
    spec: Spec,
}

/// Why a shard of the first-placement search was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FirstSpecError {
    /// A side outside 1..64.
    #[error("expected a board side 1..{MAX_N}, found {0}")]
    Side(u64),
    /// A depth outside 1..n.
    #[error("expected a prefix depth 1..{n} (columns, at most the board's side), found {depth}")]
    Depth {
        /// The depth asked for.
        depth: u64,
        /// The board side.
        n: u64,
    },
}

impl FirstSpec {
    /// Shard `spec` of side `n` (1..64), prefixes of `depth` columns (1..n).
    pub fn new(n: u64, depth: u64, spec: Spec) -> Result<FirstSpec, FirstSpecError> {
        if n == 0 || n > MAX_N as u64 {
            return Err(FirstSpecError::Side(n));
        }
        if depth == 0 || depth > n {
            return Err(FirstSpecError::Depth { depth, n });
        }
        Ok(FirstSpec {
            n: n as usize,
            depth: depth as usize,
            spec,
        })
    }

    /// The board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The columns of a prefix.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The shard.
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The number of the shard's `j`-th prefix (from 0), `None` past 64 bits.
    pub fn prefix_number(&self, j: u64) -> Option<u64> {
        j.checked_mul(self.spec.shards())?
            .checked_add(self.spec.index())
    }
}

/// The depth of the prefixes when none is asked for: two fifths of the side (rounded up; at
/// N = 40, 16 columns deal about 3,800 dead prefixes before the answer's over the shards,
/// where 14 leave 19, each a refutation of minutes: see experiments/nqueens/EXPERIMENTS.md),
/// more columns when the shards are many, and at most the side.
pub fn default_depth(n: usize, shards: u64) -> usize {
    let mut depth = (2 * n).div_ceil(5).max(1);
    let mut room = (n.max(2) as u64).saturating_pow(depth as u32 / 2);
    while room < shards.saturating_mul(4) && depth < n {
        depth += 1;
        room = room.saturating_mul(n as u64 / 2);
    }
    depth.min(n)
}

/// The prefixes of `depth` columns of an empty `n`x`n` board in lexicographic order: `depth`
/// non-attacking queens, one per column from the left, with a row open on every later column.
pub struct Prefixes {
    n: usize,
    depth: usize,
    /// The rows still to try on each column of the path.
    todo: [u64; MAX_N],
    /// The rows taken before each column, and the diagonals (as in [`First`]'s state).
    rows: [u64; MAX_N + 1],
    down: [u128; MAX_N + 1],
    up: [u128; MAX_N + 1],
    place: [u8; MAX_N],
    level: usize,
    ended: bool,
}

impl Prefixes {
    /// The prefixes of `depth` columns (1..=n) of side `n` (1..=64); `None` outside.
    pub fn new(n: usize, depth: usize) -> Option<Prefixes> {
        if !(1..=MAX_N).contains(&n) || !(1..=n).contains(&depth) {
            return None;
        }
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut p = Prefixes {
            n,
            depth,
            todo: [0; MAX_N],
            rows: [0; MAX_N + 1],
            down: [0; MAX_N + 1],
            up: [0; MAX_N + 1],
            place: [0; MAX_N],
            level: 0,
            ended: false,
        };
        p.todo[0] = all;
        Some(p)
    }

    /// The open rows of column `c` below the queens taken before `level`.
    #[inline(always)]
    fn open(&self, level: usize, c: usize) -> u64 {
        let all = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        let down = (self.down[level] >> (self.n - 1 - c)) as u64;
        let up = (self.up[level] >> c) as u64;
        all & !self.rows[level] & !down & !up
    }

    /// The next prefix (its rows, from 0), or `None` after the last.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<&[u8]> {
        if self.ended {
            return None;
        }
        loop {
            let level = self.level;
            let open = self.todo[level];
            if open == 0 {
                if level == 0 {
                    self.ended = true;
                    return None;
                }
                self.level -= 1;
                continue;
            }
            let r = open.trailing_zeros() as usize;
            self.todo[level] = open & (open - 1);
            let n = self.n;
            self.rows[level + 1] = self.rows[level] | 1 << r;
            self.down[level + 1] = self.down[level] | 1u128 << (r + n - 1 - level);
            self.up[level + 1] = self.up[level] | 1u128 << (r + level);
            if (level + 1..n).any(|c| self.open(level + 1, c) == 0) {
                continue;
            }
            self.place[level] = r as u8;
            if level + 1 == self.depth {
                return Some(&self.place[..self.depth]);
            }
            self.level += 1;
            self.todo[level + 1] = self.open(level + 1, level + 1);
        }
    }
}

/// How a shard's search stands.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Outcome {
    /// Stopped (a time limit, Ctrl-C) with prefixes left: the record resumes it.
    Running,
    /// The first placement of its prefixes (rows from 0).
    Found(Vec<u8>),
    /// Every prefix of the shard refuted: no placement in its part.
    None,
}

/// Where a shard's search is.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ShardRun {
    /// The shard's prefixes refuted (it takes them in order): its `done` first ones.
    pub done: u64,
    /// The rows (from 0) of the shard's next prefix, the one `Found` placed a queen on;
    /// `None` when it has no more.
    pub prefix: Option<Vec<u8>>,
    /// Nodes of the probe searches of the prefixes it finished (refuted, or found).
    pub nodes: u64,
    /// Where it ended.
    pub outcome: Outcome,
}

/// Runs shard `spec` from its `done`-th prefix (0 to start; a record's `done` to resume)
/// until it finds a placement, refutes every prefix, or `control` says stop; calls
/// `progress` after each prefix refuted. `nodes` of the result counts this run's searches
/// only; [`FirstRecord::resumed`] adds those before.
pub fn search(
    spec: &FirstSpec,
    done: u64,
    control: &Control,
    mut progress: impl FnMut(&ShardRun),
) -> ShardRun {
    let (n, depth) = (spec.n, spec.depth);
    let shards = spec.spec.shards();
    // Running until it ends: `progress` sees it so (a checkpoint of a shard that goes on).
    let mut run = ShardRun {
        done,
        prefix: None,
        nodes: 0,
        outcome: Outcome::Running,
    };
    let Some(mut prefixes) = Prefixes::new(n, depth) else {
        run.outcome = Outcome::None;
        return run;
    };
    // Skip to the shard's `done`-th prefix: number index + done * shards (none past 64 bits).
    let Some(mut skip) = spec.prefix_number(done) else {
        run.outcome = Outcome::None;
        return run;
    };
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut allowed = vec![all; n];
    loop {
        if control.should_stop() {
            run.outcome = Outcome::Running;
            return run;
        }
        let Some(prefix) = prefixes.next() else {
            run.prefix = None;
            run.outcome = Outcome::None;
            return run;
        };
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let prefix = prefix.to_vec();
        for (c, &r) in prefix.iter().enumerate() {
            allowed[c] = 1 << r;
        }
        let mut first = match First::new(n, &allowed, control) {
            Some(first) => first,
            None => return run,
        };
        let found = first.first();
        run.prefix = Some(prefix);
        match found {
            // A prefix stopped half-way is searched again from its start when the shard
            // resumes: its nodes are not counted, so that a resumed shard's record is the
            // same as one run straight.
            std::ops::ControlFlow::Break(()) => {
                run.outcome = Outcome::Running;
                return run;
            }
            std::ops::ControlFlow::Continue(found) => {
                run.nodes += first.stats().nodes;
                if let Some(rows) = found {
                    run.outcome = Outcome::Found(rows);
                    return run;
                }
                run.done += 1;
                run.prefix = None;
                control.add_done(1);
                progress(&run);
            }
        }
        skip = shards - 1;
    }
}

/// One shard's record, as written by `nqueens list N --limit 1 --shard I/K --format json`
/// (and, while it runs, to its `--record` file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstRecord {
    /// Always `"first"`: the search for the first placement.
    pub search: String,
    /// The board side.
    pub n: u64,
    /// The columns of a prefix.
    pub depth: u64,
    /// The shard's number, from 0.
    pub shard: u64,
    /// The number of shards.
    pub shards: u64,
    /// `"running"`, `"found"` or `"none"`.
    pub outcome: String,
    /// The shard's prefixes refuted: its prefixes number `shard`, `shard + shards`, ..., up to
    /// (not including) `next`.
    pub done: u64,
    /// `shard + done * shards`: the number of the next prefix (found: the one that holds
    /// `rows`).
    pub next: u64,
    /// The placement found (rows from 1), with `"found"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<Vec<u64>>,
    /// Nodes of the probe searches of the prefixes it finished (a prefix stopped half-way
    /// is searched again when the shard resumes, and counted then).
    pub nodes: u64,
    /// The CPU time the shard took, in seconds (in all, across resumptions).
    pub cpu_seconds: f64,
    /// The version of the program.
    pub version: String,
    /// A check over the other fields (but the CPU time): 16 hexadecimal digits.
    pub check: String,
}

impl FirstRecord {
    /// The record of shard `spec` where `run` left it.
    pub fn new(spec: &FirstSpec, run: &ShardRun, cpu_seconds: f64) -> FirstRecord {
        let (outcome, rows) = match &run.outcome {
            Outcome::Running => ("running", None),
            Outcome::Found(rows) => (
                "found",
                Some(rows.iter().map(|&r| u64::from(r) + 1).collect()),
            ),
            Outcome::None => ("none", None),
        };
        let mut record = FirstRecord {
            search: SEARCH.to_string(),
            n: spec.n as u64,
            depth: spec.depth as u64,
            shard: spec.spec.index(),
            shards: spec.spec.shards(),
            outcome: outcome.to_string(),
            done: run.done,
            next: spec.prefix_number(run.done).unwrap_or(u64::MAX),
            rows,
            nodes: run.nodes,
            cpu_seconds: (cpu_seconds * 1e6).round() / 1e6,
            version: VERSION.to_string(),
            check: String::new(),
        };
        record.check = record.expected_check();
        record
    }

    /// This record, for a run resumed from `before`: its nodes and CPU time added.
    pub fn resumed(mut self, before: &FirstRecord) -> FirstRecord {
        self.nodes = self.nodes.saturating_add(before.nodes);
        self.cpu_seconds = ((self.cpu_seconds + before.cpu_seconds) * 1e6).round() / 1e6;
        self.check = self.expected_check();
        self
    }

    /// The check its fields call for: FNV-1a (64 bits) of a canonical line.
    pub fn expected_check(&self) -> String {
        let line = format!(
            "chess-puzzles nqueens first v1 n={} depth={} shard={}/{} outcome={} done={} \
             next={} rows={:?} nodes={} version={}",
            self.n,
            self.depth,
            self.shard,
            self.shards,
            self.outcome,
            self.done,
            self.next,
            self.rows,
            self.nodes,
            self.version
        );
        let hash = line.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("{hash:016x}")
    }

    /// The record as one line of JSON.
    pub fn to_json_line(&self) -> String {
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }

    /// Whether the shard has ended (found or none).
    pub fn ended(&self) -> bool {
        self.outcome != "running"
    }

    /// What makes the record meaningless, if anything (its check aside): see [`merge_records`].
    pub fn nonsense(&self) -> Option<String> {
        if self.search != SEARCH {
            return Some(format!("a search '{}', not '{SEARCH}'", self.search));
        }
        if self.n == 0 || self.n > MAX_N as u64 {
            return Some(format!("a board side {}, not 1..{MAX_N}", self.n));
        }
        if self.depth == 0 || self.depth > self.n {
            return Some(format!(
                "a depth {} on a board of {}, not 1..{}",
                self.depth, self.n, self.n
            ));
        }
        if self.shards == 0 || self.shards > MAX_SHARDS || self.shard >= self.shards {
            return Some(format!(
                "shard {} of {} does not exist",
                self.shard, self.shards
            ));
        }
        let next = self
            .done
            .checked_mul(self.shards)
            .and_then(|x| x.checked_add(self.shard));
        if next != Some(self.next) {
            return Some(format!(
                "next prefix {}, not shard + done x shards = {} + {} x {}",
                self.next, self.shard, self.done, self.shards
            ));
        }
        match (self.outcome.as_str(), &self.rows) {
            ("found", Some(rows)) => {
                let rows0: Option<Vec<u8>> = rows
                    .iter()
                    .map(|&r| (1..=self.n).contains(&r).then(|| (r - 1) as u8))
                    .collect();
                let valid = rows.len() as u64 == self.n
                    && rows0.is_some_and(|r| placements::is_non_attacking(&r));
                if !valid {
                    return Some(format!(
                        "its rows {} are not a placement of {} queens",
                        show(rows),
                        self.n
                    ));
                }
            }
            ("running" | "none", None) => {}
            (outcome, rows) => {
                return Some(format!(
                    "an outcome '{outcome}' {} rows (expected running, none, or found with \
                     rows)",
                    if rows.is_some() { "with" } else { "without" }
                ));
            }
        }
        if !(0.0..=MAX_CPU_SECONDS).contains(&self.cpu_seconds) {
            return Some(format!(
                "a CPU time of {} s, not 0..{MAX_CPU_SECONDS:e} s",
                self.cpu_seconds
            ));
        }
        None
    }

    /// The shard this record is of, when it is meaningful.
    pub fn spec(&self) -> Option<FirstSpec> {
        FirstSpec::new(self.n, self.depth, Spec::new(self.shard, self.shards).ok()?).ok()
    }
}

/// Rows as written: numbers separated by spaces.
fn show(rows: &[u64]) -> String {
    rows.iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads the one record of a resumable record file (`text`, named `name`): `Ok(None)` when
/// it is empty; an error with its line and column when it is not one intact record.
pub fn read_record(name: &str, text: &str) -> Result<Option<FirstRecord>, MergeError> {
    let mut found = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let syntax = |column: usize, what: String| MergeError::Syntax {
            name: name.to_string(),
            line: i + 1,
            column,
            found: what,
        };
        if found.is_some() {
            return Err(syntax(1, "found a second record".to_string()));
        }
        let record: FirstRecord = serde_json::from_str(line.trim_end())
            .map_err(|e| syntax(e.column().max(1), found_serde(&e)))?;
        if record.check != record.expected_check() {
            return Err(syntax(
                1,
                format!(
                    "found a record whose check {} does not match its fields",
                    record.check
                ),
            ));
        }
        if let Some(problem) = record.nonsense() {
            return Err(syntax(1, format!("found a record with {problem}")));
        }
        found = Some(record);
    }
    Ok(found)
}

/// The merged answer of a complete set of first-placement records.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstMerged {
    /// The board side.
    pub n: u64,
    /// The columns of a prefix.
    pub depth: u64,
    /// The number of shards.
    pub shards: u64,
    /// The first placement (rows from 0); `None` when the board has none (every shard
    /// refuted every prefix).
    pub rows: Option<Vec<u8>>,
    /// The number of the prefix that holds it: every prefix numbered below was refuted.
    pub prefix: Option<u64>,
    /// Nodes of every shard's probe searches.
    pub nodes: u64,
    /// The CPU time of every shard, in seconds.
    pub cpu_seconds: f64,
}

/// The most problems [`merge_records`] lists.
const MAX_PROBLEMS: usize = 20;

/// Reads the first-placement records of every input (`(name, reader)`; empty lines are
/// skipped) and merges them. `Ok(Ok(merged))` when exactly the shards `0..K` of one search
/// are there, once each, intact, and every prefix before the lowest one found was refuted
/// (or, with none found, every shard refuted all its prefixes); `Ok(Err(problems))` naming
/// each missing, repeated, foreign or corrupted record, or each shard not yet far enough
/// (at most 20 lines); `Err` when an input is unreadable or a line is not a record.
///
/// The merged placement is checked against its prefix: the first `depth` rows must be the
/// prefix its number names ([`Prefixes`]); a record that fails is corrupted.
pub fn merge_records<R: Read>(
    inputs: impl IntoIterator<Item = (impl Into<String>, R)>,
) -> Result<Result<FirstMerged, Vec<String>>, MergeError> {
    let mut head: Option<(FirstRecord, String)> = None;
    let mut seen: HashMap<u64, (FirstRecord, String)> = HashMap::new();
    let mut problems = Vec::new();
    for (name, reader) in inputs {
        let name: String = name.into();
        for item in Records::<_, FirstRecord>::new(&name, reader) {
            let (record, line) = item?;
            let origin = format!("{name}:{line}");
            if record.check != record.expected_check() {
                problems.push(format!(
                    "{origin}: corrupted record: its check {} does not match its fields \
                     (shard {}/{})",
                    record.check, record.shard, record.shards
                ));
                continue;
            }
            if let Some(problem) = record.nonsense() {
                problems.push(format!("{origin}: corrupted record: {problem}"));
                continue;
            }
            if let Some((h, h_origin)) = &head
                && (record.n, record.depth, record.shards, &record.version)
                    != (h.n, h.depth, h.shards, &h.version)
            {
                problems.push(format!(
                    "{origin}: foreign record: n = {}, depth {}, {} shards, version {}; the \
                     first record ({h_origin}) has n = {}, depth {}, {} shards, version {}",
                    record.n,
                    record.depth,
                    record.shards,
                    record.version,
                    h.n,
                    h.depth,
                    h.shards,
                    h.version
                ));
                continue;
            }
            if head.is_none() {
                head = Some((record.clone(), origin.clone()));
            }
            if let Some((_, before)) = seen.get(&record.shard) {
                problems.push(format!(
                    "{origin}: repeated record: shard {} of {} is also at {before}",
                    record.shard, record.shards
                ));
                continue;
            }
            seen.insert(record.shard, (record, origin));
        }
    }
    let Some((head, _)) = head else {
        problems.push("no first-placement record in the input".to_string());
        return Ok(Err(problems));
    };
    let missing = head.shards - seen.len() as u64;
    if missing > 0 {
        let list: Vec<String> = (0..head.shards)
            .filter(|i| !seen.contains_key(i))
            .take(10)
            .map(|i| i.to_string())
            .collect();
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
    if !problems.is_empty() {
        problems.truncate(MAX_PROBLEMS);
        return Ok(Err(problems));
    }
    // The lowest prefix found, and whether every shard got past the prefixes before it.
    let best = seen
        .values()
        .filter(|(r, _)| r.outcome == "found")
        .min_by_key(|(r, _)| r.next);
    let nodes = seen
        .values()
        .fold(0u64, |s, (r, _)| s.saturating_add(r.nodes));
    let cpu_seconds: f64 = seen.values().map(|(r, _)| r.cpu_seconds).sum();
    let cpu_seconds = (cpu_seconds * 1e6).round() / 1e6;
    let mut shards: Vec<&(FirstRecord, String)> = seen.values().collect();
    shards.sort_by_key(|(r, _)| r.shard);
    let Some((best, best_origin)) = best else {
        for (r, origin) in &shards {
            if r.outcome == "running" {
                problems.push(format!(
                    "{origin}: unfinished: shard {} of {} has refuted {} of its prefixes and \
                     found nothing yet",
                    r.shard, r.shards, r.done
                ));
            }
        }
        if problems.is_empty() {
            return Ok(Ok(FirstMerged {
                n: head.n,
                depth: head.depth,
                shards: head.shards,
                rows: None,
                prefix: None,
                nodes,
                cpu_seconds,
            }));
        }
        problems.truncate(MAX_PROBLEMS);
        problems.push("no shard has found a placement yet".to_string());
        return Ok(Err(problems));
    };
    for (r, origin) in &shards {
        if r.outcome == "running" && r.next < best.next {
            problems.push(format!(
                "{origin}: unfinished: shard {} of {} has refuted its prefixes up to number {} \
                 (not included), and prefixes before number {} must all be refuted",
                r.shard, r.shards, r.next, best.next
            ));
        }
    }
    if !problems.is_empty() {
        let unfinished = problems.len();
        problems.truncate(MAX_PROBLEMS);
        problems.push(format!(
            "shard {} found a placement at prefix number {} ({best_origin}), but {unfinished} \
             shard{} before it {} not finished",
            best.shard,
            best.next,
            if unfinished == 1 { "" } else { "s" },
            if unfinished == 1 { "has" } else { "have" }
        ));
        return Ok(Err(problems));
    }
    // The placement must start with the prefix its number names.
    let rows: Vec<u8> = best.rows.iter().flatten().map(|&r| (r - 1) as u8).collect();
    let depth = head.depth as usize;
    let named = Prefixes::new(head.n as usize, depth).and_then(|mut p| {
        for _ in 0..best.next {
            p.next()?;
        }
        p.next().map(<[u8]>::to_vec)
    });
    if named.as_deref() != rows.get(..depth) {
        problems.push(format!(
            "{best_origin}: corrupted record: its rows do not start with prefix number {} \
             of {} columns",
            best.next, depth
        ));
        return Ok(Err(problems));
    }
    Ok(Ok(FirstMerged {
        n: head.n,
        depth: head.depth,
        shards: head.shards,
        rows: Some(rows),
        prefix: Some(best.next),
        nodes,
        cpu_seconds,
    }))
}

impl fmt::Display for FirstSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shard {} of N = {} (prefixes of {} columns)",
            self.spec, self.n, self.depth
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placement of `n` by the shared backtracker, in order.
    fn first_plain(n: usize) -> Option<Vec<u8>> {
        placements::all(n).into_iter().next()
    }

    fn run_all(n: usize, depth: usize, shards: u64) -> Vec<FirstRecord> {
        (0..shards)
            .map(|i| {
                let spec =
                    FirstSpec::new(n as u64, depth as u64, Spec::new(i, shards).unwrap()).unwrap();
                let run = search(&spec, 0, &Control::new(), |_| {});
                FirstRecord::new(&spec, &run, 0.25)
            })
            .collect()
    }

    fn merged(records: &[FirstRecord]) -> Result<FirstMerged, Vec<String>> {
        let text: String = records.iter().map(FirstRecord::to_json_line).collect();
        merge_records([("r.jsonl", text.as_bytes())]).unwrap()
    }

    #[test]
    fn prefixes_are_the_live_ones_in_order() {
        for n in 1..=9 {
            for depth in 1..=n {
                let mut p = Prefixes::new(n, depth).unwrap();
                let mut got = Vec::new();
                while let Some(x) = p.next() {
                    got.push(x.to_vec());
                }
                // Every live prefix of a placement is there, in order, once.
                let mut of_placements: Vec<Vec<u8>> = placements::all(n)
                    .into_iter()
                    .map(|p| p[..depth].to_vec())
                    .collect();
                of_placements.dedup();
                assert!(
                    got.windows(2).all(|w| w[0] < w[1]),
                    "n = {n}, depth {depth}"
                );
                assert!(
                    of_placements.iter().all(|x| got.binary_search(x).is_ok()),
                    "n = {n}, depth {depth}"
                );
                let attacking = |x: &[u8]| {
                    (0..x.len()).any(|a| {
                        (a + 1..x.len())
                            .any(|b| x[a] == x[b] || usize::from(x[a].abs_diff(x[b])) == b - a)
                    })
                };
                assert!(
                    got.iter()
                        .all(|x| !attacking(x) && x.iter().all(|&r| usize::from(r) < n))
                );
            }
        }
    }

    #[test]
    fn merged_shards_give_the_first_placement() {
        for n in 1..=12 {
            for depth in [1, 2, 3, n / 2 + 1, n] {
                let depth = depth.clamp(1, n);
                for shards in [1, 2, 3, 7, 40] {
                    let m = merged(&run_all(n, depth, shards)).unwrap();
                    assert_eq!(m.rows, first_plain(n), "n = {n}, depth {depth}, {shards}");
                }
            }
        }
    }

    #[test]
    fn a_resumed_shard_ends_as_one_run_straight() {
        let spec = FirstSpec::new(16, 6, Spec::new(1, 3).unwrap()).unwrap();
        // Every checkpoint on the way is of a shard still running.
        let mut seen = 0;
        let straight = search(&spec, 0, &Control::new(), |run| {
            assert_eq!(run.outcome, Outcome::Running);
            seen += 1;
        });
        assert!(seen > 0 && seen == straight.done);
        for done in 0..=straight.done {
            let resumed = search(&spec, done, &Control::new(), |_| {});
            assert_eq!(resumed.outcome, straight.outcome);
            assert_eq!(resumed.done, straight.done);
            assert!(resumed.nodes <= straight.nodes);
        }
    }

    #[test]
    fn unfinished_earlier_shards_leave_no_answer() {
        let mut all = run_all(10, 4, 4);
        let found = all
            .iter()
            .filter(|r| r.outcome == "found")
            .min_by_key(|r| r.next);
        let best = found.unwrap().clone();
        // A shard stopped before it got past the prefix found: no answer.
        let earlier = all
            .iter()
            .position(|r| r.shard != best.shard && r.shard < best.next)
            .unwrap();
        let spec = all[earlier].spec().unwrap();
        let stopped = ShardRun {
            done: 0,
            prefix: None,
            nodes: 0,
            outcome: Outcome::Running,
        };
        all[earlier] = FirstRecord::new(&spec, &stopped, 0.0);
        let problems = merged(&all).unwrap_err();
        assert!(
            problems.iter().any(|p| p.contains("unfinished")),
            "{problems:?}"
        );
        // A missing one, too.
        all.remove(earlier);
        let problems = merged(&all).unwrap_err();
        assert!(problems[0].starts_with("missing 1 of 4"), "{problems:?}");
    }

    #[test]
    fn altered_records_are_refused() {
        let all = run_all(10, 3, 3);
        let best = all
            .iter()
            .filter(|r| r.outcome == "found")
            .map(|r| r.next)
            .min()
            .unwrap();
        let i = all.iter().position(|r| r.next == best).unwrap();
        // Rows that are a placement, but not of the prefix named: refused.
        let mut other = all.clone();
        let mut rows = placements::all(10).last().unwrap().clone();
        rows.iter_mut().for_each(|r| *r += 1);
        other[i].rows = Some(rows.iter().map(|&r| u64::from(r)).collect());
        other[i].check = other[i].expected_check();
        let problems = merged(&other).unwrap_err();
        assert!(problems[0].contains("corrupted"), "{problems:?}");
        // Rows that are not a placement.
        let mut bad = all.clone();
        bad[i].rows = Some(vec![1; 10]);
        bad[i].check = bad[i].expected_check();
        assert!(merged(&bad).unwrap_err()[0].contains("not a placement"));
        // A field changed, the check left.
        let mut bad = all.clone();
        bad[0].done += 1;
        assert!(merged(&bad).unwrap_err()[0].contains("check"));
    }

    #[test]
    fn record_files_are_read_strictly() {
        let all = run_all(8, 2, 2);
        let line = all[0].to_json_line();
        assert_eq!(read_record("f", &line).unwrap(), Some(all[0].clone()));
        assert_eq!(read_record("f", "\n").unwrap(), None);
        assert!(read_record("f", &format!("{line}{line}")).is_err());
        assert!(read_record("f", "{").is_err());
        let mut bad = all[0].clone();
        bad.nodes += 1;
        assert!(read_record("f", &bad.to_json_line()).is_err());
    }

    #[test]
    fn default_depths_stay_on_the_board() {
        for n in 1..=64 {
            for shards in [1, 4, 1000, MAX_SHARDS] {
                let d = default_depth(n, shards);
                assert!((1..=n).contains(&d), "n = {n}, {shards}: {d}");
            }
        }
    }
}
