//! `fairylab variants`: the games and their options.

use crate::variant::registry;
use crate::{Error, Variant};

pub fn run() -> Result<(), Error> {
    for name in registry::names() {
        match Variant::load(&name, &[]) {
            Ok(v) => {
                let (f, r) = v.board_size();
                println!("{name:<24} {f}x{r}  {}", v.title());
                for (opt, desc) in v.available_options() {
                    println!("    --option {opt:<20} {desc}");
                }
            }
            Err(e) => println!("{name:<24} (does not load: {e})"),
        }
    }
    Ok(())
}
