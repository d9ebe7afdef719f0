//! `fairylab stats` (the offline calculator) and `fairylab merge`.

use crate::stats::{EloInterval, Pentanomial, Wdl, MIN_GAMES};
use crate::tournament::game_result;
use crate::tournament::{output, Encounter, Summary};
use crate::Error;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct StatsArgs {
    /// Wins, draws, losses: `W,D,L`.
    #[arg(long)]
    pub wdl: Option<String>,
    /// Pair counts `LL,LD,DD+WL,WD,WW`.
    #[arg(long)]
    pub penta: Option<String>,
    /// A run directory (games.csv): statistics of its encounters.
    #[arg(long)]
    pub games: Option<PathBuf>,
    /// `elo0=.. elo1=.. alpha=.. beta=.. model=normalized|logistic`.
    #[arg(long)]
    pub sprt: Option<String>,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Shard directories: one run each, or whole folders of runs (a report's, a values
    /// study's), merged folder by folder.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    #[arg(long)]
    pub out: PathBuf,
}

fn counts(flag: &str, text: &str, n: usize) -> Result<Vec<u64>, Error> {
    let v: Vec<u64> = text
        .split(',')
        .map(|x| x.trim().parse::<u64>().map_err(|_| Error::Usage(format!("{flag}: '{x}' is not a count"))))
        .collect::<Result<_, _>>()?;
    if v.len() != n {
        return Err(Error::Usage(format!("{flag} needs {n} comma-separated counts, got {}", v.len())));
    }
    Ok(v)
}

/// Encounters of a run directory, from the first-named engine's point of view.
pub fn encounters_of(dir: &std::path::Path) -> Result<Vec<Encounter>, Error> {
    let games = output::read_games(dir).map_err(Error::RunFolder)?;
    // Per (first engine, second engine): the encounter and engine one's scores per pair.
    type Pairs = std::collections::BTreeMap<u64, Vec<f64>>;
    let mut map: std::collections::BTreeMap<(String, String), (Encounter, Pairs)> = Default::default();
    for g in &games {
        let Some(w) = g.white_score() else { continue };
        let (a, b, sa) =
            if g.game_id.is_multiple_of(2) { (&g.white, &g.black, w) } else { (&g.black, &g.white, 1.0 - w) };
        let entry = map
            .entry((a.clone(), b.clone()))
            .or_insert_with(|| (Encounter { a: a.clone(), b: b.clone(), ..Default::default() }, Default::default()));
        entry.0.wdl.record(game_result(sa));
        entry.1.entry(g.pair_id).or_default().push(sa);
    }
    Ok(map
        .into_values()
        .map(|(mut e, pairs)| {
            for v in pairs.values().filter(|v| v.len() == 2) {
                e.penta.record(game_result(v[0]), game_result(v[1]));
            }
            e
        })
        .collect())
}

/// The report lines of one encounter.
///
/// Paired games are the better evidence (see [`Pentanomial`]), so whenever there are pairs
/// every figure comes from them; W/D/L only feed the figures when no pair is known. `--penta`
/// input has pairs only: its games are counted from the pairs.
pub fn describe(e: &Encounter) -> Vec<String> {
    let (wdl, penta) = (&e.wdl, &e.penta);
    let pairs = penta.pairs();
    let mut lines = Vec::new();
    let games = if wdl.games() > 0 { wdl.games() } else { penta.games() };
    let mut head = format!("{} vs {}: {games} games", e.a, e.b);
    if wdl.games() > 0 {
        head += &format!("  W {}  D {}  L {}", wdl.wins, wdl.draws, wdl.losses);
    }
    if pairs > 0 {
        head += &format!("  ({pairs} pairs)");
    }
    lines.push(head);
    let paired = pairs > 0;
    let (elo, nelo) =
        if paired { (penta.elo_interval(), penta.nelo_interval()) } else { (wdl.elo_interval(), wdl.nelo_interval()) };
    let level = if matches!(elo, EloInterval::NotEnoughGames { .. }) { "" } else { " (95 %)" };
    lines.push(format!("  Elo {elo}{level}"));
    lines.push(format!("  nElo {nelo}"));
    let los = if paired { penta.los() } else { wdl.los() };
    // LOS is a normal approximation too; below the interval rule's minimum it would claim
    // confidence a handful of games cannot give.
    let mut ratios = if games < MIN_GAMES {
        format!("  LOS not enough games ({games})")
    } else {
        format!("  LOS {:.2} %", 100.0 * los)
    };
    if let Some(d) = wdl.draw_ratio() {
        ratios += &format!("  draw ratio {:.1} %", 100.0 * d);
    }
    if let Some(d) = penta.draw_ratio() {
        // A WL pair counts as even too: this is not the share of drawn games.
        ratios += &format!("  even-pair ratio {:.1} %", 100.0 * d);
    }
    lines.push(ratios);
    if paired {
        lines.push(format!("  pentanomial [{}, {}, {}, {}, {}]", penta.ll, penta.ld, penta.dd_wl, penta.wd, penta.ww));
    }
    lines
}

pub fn run(a: &StatsArgs) -> Result<(), Error> {
    let sprt = a.sprt.as_deref().map(super::tournament::parse_sprt).transpose()?;
    let mut summary = Summary::default();
    if let Some(t) = &a.wdl {
        let c = counts("--wdl", t, 3)?;
        let e =
            Encounter { a: "first".into(), b: "second".into(), wdl: Wdl::new(c[0], c[1], c[2]), ..Default::default() };
        if let Some(s) = &sprt {
            summary.sprt = Some(s.test_wdl(&e.wdl));
        }
        summary.encounters.push(e);
    }
    if let Some(t) = &a.penta {
        let c = counts("--penta", t, 5)?;
        let p = Pentanomial::new(c[0], c[1], c[2], c[3], c[4]);
        // W/D/L of the games behind the pairs is not recoverable; show pair-based figures.
        let e = Encounter { a: "first".into(), b: "second".into(), penta: p, ..Default::default() };
        if let Some(s) = &sprt {
            summary.sprt = Some(s.test_pentanomial(&p));
            summary.sprt_pairs = p.pairs();
        }
        summary.encounters.push(e);
    }
    if let Some(dir) = &a.games {
        if !dir.is_dir() {
            return Err(Error::Usage(format!("--games {}: no such folder", dir.display())));
        }
        if !dir.join("games.csv").is_file() {
            return Err(Error::Usage(format!("--games {}: no games.csv there (not a run folder)", dir.display())));
        }
        let enc = encounters_of(dir)?;
        if enc.is_empty() {
            return Err(Error::Usage(format!("--games {}: no finished games in its games.csv", dir.display())));
        }
        if let (Some(s), Some(e)) = (&sprt, enc.first()) {
            summary.sprt = Some(s.test_pentanomial(&e.penta));
            summary.sprt_pairs = e.penta.pairs();
        }
        summary.encounters.extend(enc);
    }
    if summary.encounters.is_empty() {
        return Err(Error::Usage("stats needs --wdl, --penta or --games".into()));
    }
    super::tournament::print_summary(&summary);
    Ok(())
}

pub fn merge(a: &MergeArgs) -> Result<(), Error> {
    let (runs, games, positions) = output::merge_tree(&a.dirs, &a.out).map_err(Error::RunFolder)?;
    println!("merged {games} games and {positions} positions of {runs} runs into {}", a.out.display());
    Ok(())
}
