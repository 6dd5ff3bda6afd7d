//! `--format svg` through the binary: every document parses as XML, and the pieces it draws
//! (read back from the drawing's named groups) are the command's own answers in JSON, square
//! for square; one file per case with `--svg-dir`; what cannot be drawn refused with exit 2.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{run, scratch};

type Pieces = BTreeSet<(String, u32, u32)>;

/// Every piece of every board of an SVG document: (name, row, column), and the boards.
fn pieces_of(svg: &str) -> Vec<Pieces> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("board"))
        .map(|board| {
            board
                .descendants()
                .filter(|n| n.attribute("class") == Some("piece"))
                .map(|p| {
                    let title = p.children().find(|c| c.has_tag_name("title")).unwrap();
                    let name = p.attribute("data-piece").unwrap().to_string();
                    assert!(title.text().unwrap().starts_with(&name));
                    let number = |a: &str| p.attribute(a).unwrap().parse::<u32>().unwrap();
                    (name, number("data-row"), number("data-col"))
                })
                .collect()
        })
        .collect()
}

fn svg(args: &[&str], input: &str) -> String {
    let r = run(args, input.as_bytes());
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout_text()
}

fn json(args: &[&str], input: &str) -> Vec<Value> {
    svg(args, input)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn queens_of(rows: &Value, given: Option<(u32, u32)>) -> Pieces {
    rows.as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(c, r)| {
            let (r, c) = (r.as_u64().unwrap() as u32, c as u32 + 1);
            let name = if Some((r, c)) == given {
                "given queen"
            } else {
                "queen"
            };
            (name.to_string(), r, c)
        })
        .collect()
}

#[test]
fn queens_and_nqueens_draw_their_placements() {
    let input = "2\n1 1\n5 4\n";
    let boards = pieces_of(&svg(&["queens", "--format", "svg"], input));
    let mut expected = Vec::new();
    for case in json(&["queens", "--format", "json"], input) {
        let given = (
            case["queen"][0].as_u64().unwrap() as u32,
            case["queen"][1].as_u64().unwrap() as u32,
        );
        for s in case["solutions"].as_array().unwrap() {
            expected.push(queens_of(s, Some(given)));
        }
    }
    assert_eq!(boards, expected);

    let args = ["nqueens", "list", "7", "--fix", "2,3", "--limit", "5"];
    let boards = pieces_of(&svg(&[&args[..], &["--format", "svg"]].concat(), ""));
    let expected: Vec<Pieces> = json(&[&args[..], &["--format", "json"]].concat(), "")
        .iter()
        .map(|p| queens_of(&p["rows"], Some((2, 3))))
        .collect();
    assert_eq!(boards, expected);
    // A count draws its given queens; no placement draws the board and says so.
    let count = svg(
        &["nqueens", "count", "8", "--fix", "1,1", "--format", "svg"],
        "",
    );
    assert_eq!(
        pieces_of(&count),
        vec![Pieces::from([("given queen".to_string(), 1, 1)])]
    );
    assert!(count.contains("4 placements"));
    let none = svg(&["nqueens", "list", "3", "--format", "svg"], "");
    assert!(none.contains("no placement"));
    assert_eq!(pieces_of(&none), vec![Pieces::new()]);
    // With no queen given: no empty board for a count, no legend of a given queen.
    let count = svg(&["nqueens", "count", "8", "--format", "svg"], "");
    assert!(count.contains("92 placements") && !count.contains("scale("));
    let twelve = svg(
        &["nqueens", "list", "8", "--limit", "12", "--format", "svg"],
        "",
    );
    assert!(!twelve.contains("given") && !twelve.contains('♕'));
    // A worksheet in rows: twelve placements, four to a row.
    let size = |doc: &str, a: &str| -> f64 {
        let first = doc.lines().next().unwrap();
        let at = first.find(&format!(" {a}=\"")).unwrap() + a.len() + 3;
        first[at..at + first[at..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    let one = svg(
        &["nqueens", "list", "8", "--limit", "1", "--format", "svg"],
        "",
    );
    assert_eq!(
        size(&twelve, "width"),
        4.0 * size(&one, "width") + 3.0 * 24.0
    );
    assert_eq!(
        size(&twelve, "height"),
        3.0 * size(&one, "height") + 2.0 * 24.0
    );
}

#[test]
fn sultan_and_best_draw_the_best_placement_on_its_weights() {
    let input = std::fs::read_to_string("tests/data/sultan/sample.in").unwrap();
    let drawn = svg(&["sultan", "--format", "svg"], &input);
    let answer = &json(&["sultan", "--format", "json"], &input)[0];
    assert_eq!(pieces_of(&drawn), vec![queens_of(&answer["rows"], None)]);
    assert!(drawn.contains("best score 260"));
    // Every weight is written on its square.
    let doc = roxmltree::Document::parse(&drawn).unwrap();
    let numbers = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("number"))
        .count();
    assert_eq!(numbers, 64);

    let input =
        "2\n5\n1 2 3 4 5\n5 4 3 2 1\n1 1 1 1 9\n2 2 2 2 2\n3 3 3 3 3\n3\n1 1 1\n1 1 1\n1 1 1\n";
    let drawn = svg(&["nqueens", "best", "--format", "svg"], input);
    let answers = json(&["nqueens", "best", "--format", "json"], input);
    assert_eq!(
        pieces_of(&drawn),
        vec![queens_of(&answers[0]["rows"], None), Pieces::new()]
    );
    assert!(drawn.contains("impossible"));
}

#[test]
fn tour_draws_the_board_and_its_stops() {
    let input = std::fs::read_to_string("tests/data/tour/sample.in").unwrap();
    let drawn = svg(&["tour", "--format", "svg"], &input);
    let boards = pieces_of(&drawn);
    assert_eq!(boards.len(), 2);
    // The pieces are the input's, square for square (rank 8 is row 1).
    let rows: Vec<&str> = input.lines().filter(|l| l.len() == 8).collect();
    for (b, board) in boards.iter().enumerate() {
        let mut expected = Pieces::new();
        for (r, row) in rows[b * 8..b * 8 + 8].iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let name = match ch {
                    'Q' => "queen",
                    'B' => "bishop",
                    'N' => "knight",
                    'P' => "pawn",
                    _ => continue,
                };
                expected.insert((name.to_string(), r as u32 + 1, c as u32 + 1));
            }
        }
        assert_eq!(board, &expected);
    }
    // The stops are the path's squares, the impossible board's bishop crossed out.
    let doc = roxmltree::Document::parse(&drawn).unwrap();
    let stops: BTreeSet<(u32, u32)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("stop"))
        .map(|n| {
            (
                n.attribute("data-row").unwrap().parse().unwrap(),
                n.attribute("data-col").unwrap().parse().unwrap(),
            )
        })
        .collect();
    let path = &json(&["tour", "--format", "json"], &input)[0]["path"];
    let expected: BTreeSet<(u32, u32)> = path
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let s = s.as_str().unwrap().as_bytes();
            (u32::from(b'8' - s[1]) + 1, u32::from(s[0] - b'a') + 1)
        })
        .collect();
    assert_eq!(stops, expected);
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("data-mark") == Some("bad"))
            .count(),
        1
    );
}

#[test]
fn showdown_draws_kings_and_pieces() {
    let input = std::fs::read_to_string("tests/data/showdown/sample.in").unwrap();
    let args = ["showdown", "--steps", "500", "--seed", "3"];
    let drawn = svg(&[&args[..], &["--format", "svg"]].concat(), &input);
    let answer = &json(&[&args[..], &["--format", "json"]].concat(), &input)[0];
    let mut expected: Pieces = answer["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["piece"].as_str().unwrap().to_string(),
                p["row"].as_u64().unwrap() as u32,
                p["col"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    for (r, row) in input.lines().skip(2).take(5).enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '#' {
                expected.insert(("king".to_string(), r as u32 + 1, c as u32 + 1));
            }
        }
    }
    assert_eq!(pieces_of(&drawn), vec![expected]);
    // The phoenix is F, as on the command line's boards.
    assert!(drawn.contains("2 for F phoenix"));
}

#[test]
fn svg_dir_writes_one_file_per_case() {
    let dir = scratch("svg-dir");
    let out = dir.path().join("boards");
    let r = run(
        &[
            "queens",
            "--format",
            "svg",
            "--svg-dir",
            out.to_str().unwrap(),
        ],
        b"3\n1 1\n2 2\n3 3\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("3 SVG files written"));
    for case in 1..=3 {
        let text = std::fs::read_to_string(out.join(format!("queens-{case}.svg"))).unwrap();
        assert!(!pieces_of(&text).is_empty());
    }
    assert!(!out.join("queens-4.svg").exists());
}

#[test]
fn what_cannot_be_drawn_is_refused() {
    for args in [
        &["nqueens", "merge", "--format", "svg"][..],
        &[
            "nqueens", "count", "12", "--shard", "0/4", "--format", "svg",
        ],
        &["queens", "--format", "svg", "--uva"],
        &["showdown", "--format", "svg", "--explain"],
        &["queens", "--svg-dir", "x"],
    ] {
        let r = run(args, b"1\n1 1\n");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout_text());
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(r.stderr.starts_with("error: "), "{}", r.stderr);
    }
}

/// The advance width, in ems, of each character of a stop's label in DejaVu Sans Bold (its
/// `hmtx` table): the first font the drawing names, and wider than the fonts after it.
fn dejavu_bold_ems(text: &str) -> f64 {
    text.chars()
        .map(|c| match c {
            '0'..='9' => 1425.0 / 2048.0,
            ',' => 778.0 / 2048.0,
            _ => panic!("a stop's label holds {c:?}"),
        })
        .sum()
}

/// A square the queen stands on twice (a dead end of a corridor she walks up and back down):
/// its tag is as wide as its two numbers, and stays inside its square.
#[test]
fn tour_tag_of_a_square_visited_twice_holds_both_numbers() {
    let input =
        "1\n.NPPPPPP\n.PPPPPPP\n.PPPPPPP\n.PPPPPPP\n.PPPPPPP\n.PPPPPPP\n.PPPBPNP\n.......Q\n";
    assert_eq!(
        json(&["tour", "--format", "json"], input)[0]["path"],
        serde_json::json!(["h1", "a1", "a7", "a1", "d1"])
    );
    let drawn = svg(&["tour", "--format", "svg"], input);
    let doc = roxmltree::Document::parse(&drawn).unwrap();
    let number =
        |n: roxmltree::Node, name: &str| -> f64 { n.attribute(name).unwrap().parse().unwrap() };
    let mut labels = Vec::new();
    for stop in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("stop"))
    {
        let (row, col): (f64, f64) = (number(stop, "data-row"), number(stop, "data-col"));
        let text = stop.children().find(|n| n.has_tag_name("text")).unwrap();
        let label = text.text().unwrap();
        let width = dejavu_bold_ems(label) * number(text, "font-size");
        let (x, y) = (number(text, "x"), number(text, "y"));
        // The tag: a disc, or a rectangle with round ends (a stadium) when the text is wider
        // than one digit.
        let shape = stop.children().find(|n| n.is_element()).unwrap();
        let (left, top, w, h) = match shape.tag_name().name() {
            "circle" => {
                let (cx, cy, r) = (number(shape, "cx"), number(shape, "cy"), number(shape, "r"));
                (cx - r, cy - r, 2.0 * r, 2.0 * r)
            }
            "rect" => {
                assert_eq!(number(shape, "rx") * 2.0, number(shape, "height"));
                let (w, h) = (number(shape, "width"), number(shape, "height"));
                (number(shape, "x"), number(shape, "y"), w, h)
            }
            other => panic!("a stop drawn as {other}"),
        };
        let (right, bottom) = (left + w, top + h);
        // The text's box (digits stand under 0.75 em) inside the tag: its corners within the
        // round ends.
        let half_height = 0.375 * number(text, "font-size");
        let r = h / 2.0;
        let room = w / 2.0 - r + (r * r - half_height * half_height).sqrt();
        assert!(
            width / 2.0 <= room,
            "{label}: {width} wide on a tag {w} wide"
        );
        assert!(((left + right) / 2.0 - x).abs() < 1e-3 && ((top + bottom) / 2.0 - y).abs() < 0.02);
        assert!(
            left >= col - 1.0 && right <= col && top >= row - 1.0 && bottom <= row,
            "{label}: its tag leaves its square"
        );
        assert!(number(text, "font-size") >= 0.2, "{label}: legible");
        labels.push(label.to_string());
    }
    labels.sort();
    assert_eq!(labels, ["0", "1,3", "2", "4"]);
}
