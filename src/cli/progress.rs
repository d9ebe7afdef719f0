//! The command line's view of a run: a progress bar on stderr for counted work, notes and
//! warnings as lines (`--quiet` keeps only the warnings).

use crate::tournament::progress::{Event, Observer, Progress, Status};
use crate::tournament::Encounter;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;

/// Progress for a command: bars and notes, or (quiet) warnings only.
pub fn progress(quiet: bool) -> Progress {
    Progress::to(Bars { quiet, visible: true, bar: Mutex::new(None) })
}

pub struct Bars {
    quiet: bool,
    /// Tests draw nowhere.
    visible: bool,
    bar: Mutex<Option<ProgressBar>>,
}

/// A tournament's first encounter as the bar shows it.
fn standing(e: &Encounter) -> String {
    let elo = e.penta.elo().map(|x| format!("{:+.1} ± {:.1}", x.value, x.margin())).unwrap_or_else(|| "-".into());
    format!("{} vs {}: {}-{}-{}  Elo {elo}", e.a, e.b, e.wdl.wins, e.wdl.draws, e.wdl.losses)
}

impl Bars {
    fn line(&self, text: &str) {
        match self.bar.lock().ok().as_deref().and_then(|b| b.clone()) {
            Some(bar) => bar.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }

    /// A bar over all `total` units, the `done` ones counted from the first frame on, so
    /// the results it shows are those of the units it counts (and none before the first).
    fn start(
        &self,
        unit: &str,
        label: Option<&str>,
        done: u64,
        total: u64,
        standing_now: Option<&Encounter>,
    ) -> ProgressBar {
        let bar = ProgressBar::new(total);
        if self.visible && !self.quiet {
            let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}  eta {{eta}}");
            bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        } else {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        if let Some(l) = label {
            bar.set_message(l.to_string());
        }
        if done > 0 {
            bar.set_position(done);
            // The resumed units took no time now: they must not speed up the estimate.
            bar.reset_eta();
            if let Some(e) = standing_now {
                bar.set_message(standing(e));
            }
        }
        bar
    }
}

impl Observer for Bars {
    fn event(&self, event: &Event<'_>) {
        match *event {
            Event::Extending { dir, from_rounds, rounds } => {
                if !self.quiet {
                    self.line(&format!("extending {} from {from_rounds} to {rounds} rounds", dir.display()));
                }
            }
            Event::Resuming { dir, games } => {
                if !self.quiet {
                    self.line(&format!("resuming: {games} games already finished in {}", dir.display()));
                }
            }
            Event::Started { unit, label, done, total, standing } => {
                let bar = self.start(unit.name(), label, done, total, standing);
                if let Ok(mut slot) = self.bar.lock() {
                    *slot = Some(bar);
                }
            }
            Event::Advanced { done, status } => {
                if let Some(bar) = self.bar.lock().ok().as_deref().and_then(|b| b.clone()) {
                    bar.set_position(done);
                    match status {
                        Status::None => {}
                        Status::Standing(e) => bar.set_message(standing(e)),
                        Status::Text(t) => bar.set_message(t.to_string()),
                    }
                }
            }
            Event::Finished => {
                if let Some(bar) = self.bar.lock().ok().and_then(|mut b| b.take()) {
                    bar.finish_and_clear();
                }
            }
            Event::Note(text) => {
                if !self.quiet {
                    self.line(text);
                }
            }
            Event::Warning(text) => self.line(&format!("warning: {text}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::GameResult;
    use crate::tournament::progress::Unit;

    fn hidden() -> Bars {
        Bars { quiet: false, visible: false, bar: Mutex::new(None) }
    }

    fn bar(b: &Bars) -> ProgressBar {
        b.bar.lock().unwrap().clone().unwrap()
    }

    /// Wins, draws and losses shown in a progress message.
    fn shown(msg: &str) -> u64 {
        let wdl = msg.split(": ").nth(1).and_then(|r| r.split_whitespace().next()).unwrap_or("0-0-0");
        wdl.split('-').map(|n| n.parse::<u64>().unwrap()).sum()
    }

    #[test]
    fn the_progress_bar_shows_only_counted_results() {
        let b = hidden();
        let mut e = Encounter { a: "A".into(), b: "B".into(), ..Default::default() };
        b.event(&Event::Started { unit: Unit::Games, label: None, done: 0, total: 4, standing: Some(&e) });
        assert_eq!((bar(&b).position(), bar(&b).message().as_str()), (0, ""), "no result before the first game");
        e.wdl.record(GameResult::Win);
        b.event(&Event::Advanced { done: 1, status: Status::Standing(&e) });
        assert_eq!((bar(&b).position(), shown(&bar(&b).message())), (1, 1));
        b.event(&Event::Finished);
        assert!(b.bar.lock().unwrap().is_none());
        // A resumed run counts its finished games from the first frame.
        e.wdl.record(GameResult::Draw);
        e.wdl.record(GameResult::Loss);
        b.event(&Event::Started { unit: Unit::Games, label: None, done: 3, total: 8, standing: Some(&e) });
        assert_eq!((bar(&b).position(), bar(&b).length(), shown(&bar(&b).message())), (3, Some(8), 3));
    }
}
