//! The EXAMPLES sections of the help screens. Every line that starts with `chess-puzzles` or
//! `printf` runs as written (in an empty directory, in order: later lines may read the files
//! earlier ones wrote); the tests run them all.

pub const QUEENS: &str = "\
Examples:
  printf '1\\n1 1\\n' | chess-puzzles queens
  printf '2\\n1 1\\n4 6\\n' | chess-puzzles queens --format board
  chess-puzzles queens gen --cases 5 --seed 7 > queens.in
  chess-puzzles queens --uva queens.in > queens.out
  chess-puzzles queens check --uva queens.in queens.out
  chess-puzzles queens validate queens.in";

pub const SULTAN: &str = "\
Examples:
  chess-puzzles sultan gen --cases 3 --seed 1 > sultan.in
  chess-puzzles sultan sultan.in
  chess-puzzles sultan --format board sultan.in
  chess-puzzles sultan gen --kind ties --weights 7 | chess-puzzles sultan --format json
  chess-puzzles sultan sultan.in | chess-puzzles sultan check sultan.in -";

pub const SHOWDOWN: &str = "\
Examples:
  printf '1\\n3\\n#__\\n___\\n__#\\n5 5 1 5 5 5 5 5\\n' | chess-puzzles showdown --format board
  chess-puzzles showdown gen --cases 3 --size 5-10 --seed 2 > showdown.in
  chess-puzzles showdown --time-limit 1 showdown.in > showdown.out
  chess-puzzles showdown check showdown.in showdown.out
  chess-puzzles showdown --steps 2000 --seed 5 --format json showdown.in";

pub const TOUR: &str = "\
Examples:
  chess-puzzles tour gen --cases 3 --seed 4 > tour.in
  chess-puzzles tour tour.in
  chess-puzzles tour --format board tour.in
  chess-puzzles tour gen --kind crowded --cases 1 | chess-puzzles tour --format board
  chess-puzzles tour tour.in | chess-puzzles tour check tour.in -";

pub const NQUEENS: &str = "\
Examples:
  chess-puzzles nqueens list 8 --fix 1,1 --limit 2
  chess-puzzles nqueens count 12 --fix 1,1
  chess-puzzles nqueens count 10 --format board
  printf '1\\n5\\n1 2 3 4 5\\n5 4 3 2 1\\n1 1 1 1 9\\n2 2 2 2 2\\n3 3 3 3 3\\n' | chess-puzzles nqueens best";

pub const NQUEENS_LIST: &str = "\
Examples:
  chess-puzzles nqueens list 8 --fix 1,1 --limit 2
  chess-puzzles nqueens list 6 --format board
  chess-puzzles nqueens list 30 --fix 1,1 --fix 2,3 --limit 1 --format json
  chess-puzzles nqueens list 20 --limit 1 --shard 1/4 --format json --record shard-1.json";

pub const NQUEENS_COUNT: &str = "\
Examples:
  chess-puzzles nqueens count 12
  chess-puzzles nqueens count 12 --fix 1,1 --fix 2,3
  chess-puzzles nqueens count 14 --threads 1 --time-limit 60 --format json";

pub const NQUEENS_BEST: &str = "\
Examples:
  printf '1\\n5\\n1 2 3 4 5\\n5 4 3 2 1\\n1 1 1 1 9\\n2 2 2 2 2\\n3 3 3 3 3\\n' | chess-puzzles nqueens best
  printf '1\\n4\\n1 2 3 4\\n5 6 7 8\\n9 1 2 3\\n4 5 6 7\\n' | chess-puzzles nqueens best --format board";

pub const DEMO: &str = "\
Examples:
  chess-puzzles demo";

pub const COMPLETIONS: &str = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  chess-puzzles completions bash > ~/.local/share/bash-completion/completions/chess-puzzles
  mkdir -p ~/.zfunc && chess-puzzles completions zsh > ~/.zfunc/_chess-puzzles  # fpath+=(~/.zfunc) before compinit in ~/.zshrc
  mkdir -p ~/.config/fish/completions && chess-puzzles completions fish > ~/.config/fish/completions/chess-puzzles.fish";

pub const MAN: &str = "\
Examples:
  chess-puzzles man | man -l -  # the page of chess-puzzles itself
  mkdir -p ~/.local/share/man/man1 && chess-puzzles man --dir ~/.local/share/man/man1  # then: man chess-puzzles-queens";

pub const STRESS: &str = "\
Examples:
  chess-puzzles queens stress --cases 50 -- chess-puzzles queens
  chess-puzzles sultan stress --time 3 --jobs 2 --seed 7 -- chess-puzzles sultan
  chess-puzzles tour stress --gen-args '--cases 2 --kind crowded' --cases 10 -- chess-puzzles tour
  chess-puzzles showdown stress --ratio 1.5 --cases 5 -- chess-puzzles showdown --time-limit 0.1
  chess-puzzles queens stress --cases 5 --format json -- chess-puzzles queens";

pub const JUDGE: &str = "\
Examples:
  mkdir tests
  chess-puzzles sultan gen --seed 1 > tests/1.in
  chess-puzzles sultan gen --seed 2 > tests/2.in
  chess-puzzles sultan tests/2.in > tests/2.out
  chess-puzzles sultan judge tests -- chess-puzzles sultan
  chess-puzzles sultan judge --format json --time-limit 1 tests -- chess-puzzles sultan";
