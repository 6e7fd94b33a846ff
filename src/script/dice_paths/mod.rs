//! A study's calls of compiled procedures remembered by the dice they rolled: the same call on the same units again reads the trial's own dice down the path they took, and ends as that path ended, without running the procedure.
//!
//! In a study the same fire, by the same units in the same situation, is resolved trial
//! after trial, and all its work but the dice (the modifiers, the fire points, the row) comes
//! out the same each time. So each call is kept as a tree: the die its first roll asks for,
//! then for each face the die the next roll asks for, and so on down to how the call ended
//! (the value it returned, the units and leaders it left, and the operations it spent). A
//! call of the same procedure, with the same arguments, on units and leaders of the same
//! values, draws its faces from the trial's dice in the same order the procedure would, so
//! every trial comes out exactly as if the procedure had run: `--trial N`, which runs it, gives
//! the same trial. A face no earlier call rolled there is run for real, with the faces already
//! drawn given back to it first, and its path is added to the tree.
//!
//! The sandbox holds as it would: a path's end spends the operations the call spent (see
//! `Meter::spend_at`). A call is run and not kept when it fails, when it makes, removes or
//! counts anything (a unit, a leader, a tally), when its units hold decks, or when an argument
//! is of a kind that cannot be compared; a procedure whose calls seldom repeat is no longer
//! looked up, and the trees stop growing past `MOST_ENDS`.

mod call;

use ahash::AHashMap as HashMap;
use std::rc::Rc;

use rhai::Dynamic;

use crate::dice::Die;
use crate::script::world::World;

/// Most path ends kept in all (each holds the units it left): past it, calls not yet kept run.
const MOST_ENDS: usize = 20_000;

/// Most named states whose units' hash is kept (see `DicePaths::hashes`): past it, forgotten.
const MOST_NAMED_HASHES: usize = 20_000;

/// Most named states kept for one call (see `Call::names`).
const MOST_NAMES: usize = 16;

/// Calls of a procedure between two looks at how many were found: when fewer than a third of
/// them, it is no longer looked up (a miss costs a little more than running the call).
const WINDOW: u64 = 1_024;

/// The calls a study's worker keeps, behind the compiled runner's seam (see `compiled::seam`).
#[derive(Default)]
pub struct KeptCalls(pub std::cell::RefCell<DicePaths>);

/// What a study's worker keeps of its calls, from trial to trial.
#[derive(Default)]
pub struct DicePaths {
    procedures: HashMap<usize, Procedure>,
    ends: usize,
    /// The hash of the units of each named state met (see `handles::stand_as`), so that it is
    /// not worked out again.
    hashes: HashMap<u64, u64>,
}

/// The calls of one procedure kept, by a hash of their arguments and units.
#[derive(Default)]
struct Procedure {
    calls: HashMap<u64, Vec<Call>>,
    /// The call found last, by its hash and place (calls are only ever added).
    last: Option<(u64, usize)>,
    looked_up: u64,
    found: u64,
    /// Found since the last look (see `WINDOW`).
    found_lately: u64,
    given_up: bool,
}

impl Procedure {
    /// Counts a look-up; gives up looking when too few of the last `WINDOW` were found.
    fn looked_up(&mut self, found: bool) {
        self.looked_up += 1;
        self.found += u64::from(found);
        self.found_lately += u64::from(found);
        if self.looked_up.is_multiple_of(WINDOW) {
            self.given_up = self.found_lately * 3 < WINDOW;
            self.found_lately = 0;
        }
    }
}

/// One call: its arguments, the world it was made on, and the paths its dice took (none yet
/// when its first run is not kept).
struct Call {
    args: Vec<Dynamic>,
    world: Rc<World>,
    paths: Option<Path>,
    /// Named states of the units found to be `world` (see `handles::stand_as`): standing as
    /// one of them, the units need not be compared.
    names: Vec<u64>,
}

/// Where a call's dice lead.
enum Path {
    /// The next roll asks for `die`; each face rolled so far leads on.
    Roll {
        die: Die,
        next: HashMap<i64, Path>,
    },
    End(Rc<End>),
}

/// How a call ended on one path.
struct End {
    value: Dynamic,
    world: Rc<World>,
    /// The name of the state the units stand in once the call ended here.
    name: u64,
    /// The units and leaders the call changed (see `World::changed_from`): only they are put
    /// in place, the others being as the call found them.
    changed: (Vec<usize>, Vec<usize>),
    operations: u64,
    /// Whether `value` holds units or leaders (read as the trial's own when it ends here).
    holds_handles: bool,
}

impl DicePaths {
    /// How many calls were looked up, and how many of them ended on a path kept.
    pub fn found(&self) -> (u64, u64) {
        self.procedures.values().fold((0, 0), |(l, f), p| (l + p.looked_up, f + p.found))
    }

    /// Whether calls of `procedure` are still looked up.
    fn looks_up(&self, procedure: usize) -> bool {
        self.procedures.get(&procedure).is_none_or(|p| !p.given_up)
    }
}

#[cfg(test)]
mod tests {
    use crate::dice::Seeded;
    use crate::rules::load;
    use crate::script::Host;

    /// A trial: fires until the target breaks or twelve have been fired, each with its own
    /// situation, and what each left, with a die rolled after it to show the dice kept in step.
    const TRIAL: &str = r#"
        let a = unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"});
        let b = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});
        b.attach(leader(#{name: "Colonel"}));
        let seen = [];
        for i in 0..12 {
            if b.stands < 3 { break; }
            let r = fire(a, b, #{range: 1 + i % 3, enfiladed: i % 2 == 0});
            seen.push(`${r.result} ${r.natural} ${b.stands} ${b.order} ${roll("1d1000").total}`);
        }
        seen
    "#;

    fn host(studying: bool) -> Host {
        let rules = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules");
        let ruleset = load(&["ff-napoleonic".to_string()], &rules).unwrap().ruleset;
        let host = Host::new(ruleset).unwrap();
        host.set_tracing(false);
        host.set_studying(studying);
        host
    }

    #[test]
    fn kept_calls_give_every_trial_exactly_as_running_them_does() {
        let (kept, ran) = (host(true), host(false));
        let ast = kept.compile(&rhai::Scope::new(), TRIAL).unwrap();
        let ast_ran = ran.compile(&rhai::Scope::new(), TRIAL).unwrap();
        for trial in 0..400 {
            kept.set_dice(Box::new(Seeded::for_trial(9, trial)));
            ran.set_dice(Box::new(Seeded::for_trial(9, trial)));
            let a = kept.run(&mut rhai::Scope::new(), &ast, TRIAL).unwrap().value;
            let b = ran.run(&mut rhai::Scope::new(), &ast_ran, TRIAL).unwrap().value;
            assert_eq!(a.to_string(), b.to_string(), "trial {trial}");
        }
        // Most calls (85% here) were read from the paths kept, not run.
        let (looked_up, found) = kept.kept_calls().unwrap();
        assert!(looked_up > 2_000 && found * 5 > looked_up * 4, "{found} of {looked_up}");
        assert!(ran.kept_calls().is_none());
    }
}
