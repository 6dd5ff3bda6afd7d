//! Query parameters, read strictly: a name the endpoint does not know, a repeated name, or a
//! value that does not parse is a 400 that says which. The parameters several endpoints share
//! (`format`, `time_limit`) are read by one method each.

use std::str::FromStr;
use std::time::Duration;

use super::error::ApiError;
use super::{JSON_LINES, SVG, TEXT};
use crate::output::OutputFormat;

/// The decoded `name=value` pairs of a query string, taken one name at a time.
#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Decodes a query string (`None`: no query).
    pub fn parse(query: Option<&str>) -> Params {
        let pairs = query
            .map(|q| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
            .unwrap_or_default();
        Params { pairs }
    }

    /// Every value of `name`, in order, removed from the rest.
    pub fn take_all(&mut self, name: &str) -> Vec<String> {
        let (taken, rest) = std::mem::take(&mut self.pairs)
            .into_iter()
            .partition(|(k, _)| k == name);
        self.pairs = rest;
        taken.into_iter().map(|(_, v)| v).collect()
    }

    /// The value of `name` if given (once), parsed.
    pub fn take<T: FromStr>(&mut self, name: &str, expected: &str) -> Result<Option<T>, ApiError> {
        match self.take_one(name)? {
            None => Ok(None),
            Some(value) => value.trim().parse().map(Some).map_err(|_| {
                ApiError::bad(format!("{name}: expected {expected}, found '{value}'"))
            }),
        }
    }

    /// A yes/no flag: absent, empty, `true` or `1` (yes), `false` or `0` (no).
    pub fn flag(&mut self, name: &str) -> Result<bool, ApiError> {
        match self.take_one(name)?.as_deref() {
            None => Ok(false),
            Some("" | "true" | "1") => Ok(true),
            Some("false" | "0") => Ok(false),
            Some(other) => Err(ApiError::bad(format!(
                "{name}: expected true or false, found '{other}'"
            ))),
        }
    }

    /// The value of `name` as given, if it is given at most once.
    fn take_one(&mut self, name: &str) -> Result<Option<String>, ApiError> {
        let mut values = self.take_all(name);
        if values.len() > 1 {
            return Err(ApiError::bad(format!(
                "{name}: expected one value, found several"
            )));
        }
        Ok(values.pop())
    }

    /// `format`: `json` (the default), `judge`, `board` or `svg`, and the content type of its
    /// answer.
    pub fn format(&mut self) -> Result<(OutputFormat, &'static str), ApiError> {
        let format = match self.take::<String>("format", "json, judge, board or svg")? {
            None => OutputFormat::Json,
            Some(name) => name.parse::<OutputFormat>().map_err(|_| {
                ApiError::bad(format!(
                    "format: expected json, judge, board or svg, found '{name}'"
                ))
            })?,
        };
        let content_type = match format {
            OutputFormat::Json => JSON_LINES,
            OutputFormat::Svg => SVG,
            OutputFormat::Judge | OutputFormat::Board => TEXT,
        };
        Ok((format, content_type))
    }

    /// `time_limit` in seconds: at most `max` (the server's limit), at least 0 (exclusive when
    /// `positive`); `max` when absent, or `default` when given.
    pub fn time_limit(
        &mut self,
        max: Duration,
        default: Option<Duration>,
        positive: bool,
    ) -> Result<Duration, ApiError> {
        let most = max.as_secs_f64();
        let expected = if positive {
            format!("a number of seconds above 0 and at most {most}")
        } else {
            format!("a number of seconds from 0 to {most}")
        };
        match self.take::<f64>("time_limit", &expected)? {
            None => Ok(default.unwrap_or(max).min(max)),
            Some(s) if s.is_finite() && s <= most && (s > 0.0 || (!positive && s == 0.0)) => {
                Ok(Duration::from_secs_f64(s))
            }
            Some(s) => Err(ApiError::bad(format!(
                "time_limit: expected {expected} (the server's limit), found {s}"
            ))),
        }
    }

    /// Fails on any name not taken yet.
    pub fn finish(self) -> Result<(), ApiError> {
        match self.pairs.first() {
            None => Ok(()),
            Some((name, _)) => Err(ApiError::bad(format!(
                "unknown query parameter '{name}' (docs/web.md lists each endpoint's)"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_decoded_taken_and_checked() {
        let mut p = Params::parse(Some("n=8&fix=1%2C1&fix=3,5&open&limit=x"));
        assert_eq!(p.take::<u64>("n", "a number").unwrap(), Some(8));
        assert_eq!(p.take_all("fix"), vec!["1,1", "3,5"]);
        assert!(p.flag("open").unwrap());
        assert!(p.take::<u64>("limit", "a number").is_err());
        assert!(p.finish().is_ok());

        let mut p = Params::parse(Some("n=8&n=9"));
        assert!(p.take::<u64>("n", "a number").is_err());
        let p = Params::parse(Some("colour=red"));
        assert!(p.finish().is_err());
        let mut p = Params::parse(None);
        assert_eq!(p.take::<u64>("n", "a number").unwrap(), None);
    }
}
