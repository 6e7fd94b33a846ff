//! Orders of battle for scripts: `order_of_battle("hedge.yaml")` reads a scenario's sides, commands, leaders and units.

use std::path::Path;

use rhai::{Dynamic, Engine, EvalAltResult, FuncRegistration, Map};

use crate::rules::files::Confined;
use crate::rules::unit_problem::locate_unit_error;
use crate::rules::{Problems, parse_yaml, source_file};
use crate::script::error::fail;
use crate::script::handles::{LeaderRef, UnitRef};
use crate::script::state::Shared;
use crate::unit::{OrderOfBattle, UnitError};

pub fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    FuncRegistration::new("order_of_battle").with_volatility(true).register_into_engine(
        engine,
        move |path: &str| -> Result<Map, Box<EvalAltResult>> {
            let Some(folder) = st.borrow().data_folder.clone() else {
                return fail("order_of_battle: there is no scenario folder to read from here");
            };
            let text = read(&folder, path)?;
            let source = source_file(path, text);
            let problems = match parse_yaml::<OrderOfBattle>(&source) {
                Ok(mut oob) => {
                    let vocabulary = &st.borrow().ruleset.vocabulary;
                    let mut errors: Vec<UnitError> =
                        oob.units.iter_mut().flat_map(|unit| vocabulary.complete(unit)).collect();
                    errors.extend(oob.check(vocabulary));
                    if errors.is_empty() {
                        Ok(oob)
                    } else {
                        Err(errors.iter().map(|e| locate_unit_error(&source, e)).collect::<Vec<_>>())
                    }
                }
                Err(problem) => Err(vec![*problem]),
            };
            let oob = match problems {
                Ok(oob) => oob,
                Err(problems) => {
                    let count = problems.len();
                    st.borrow_mut().scenario_problems = Some(Problems(problems));
                    return fail(format!("the order of battle {path} has {count} problem(s)"));
                }
            };
            let mut units = Map::new();
            let mut leaders = Map::new();
            let mut st = st.borrow_mut();
            for leader in oob.leaders {
                let handle = LeaderRef::new(leader);
                let id = st.add_leader(handle.clone());
                leaders.insert(id.into(), Dynamic::from(handle));
            }
            for unit in oob.units {
                let handle = UnitRef::new(unit);
                let id = st.add_unit(handle.clone());
                units.insert(id.into(), Dynamic::from(handle));
            }
            let sides: rhai::Array = oob.sides.iter().map(|s| Dynamic::from(s.id.clone())).collect();
            let commands: Map = oob
                .commands
                .iter()
                .map(|c| {
                    let mut command = Map::new();
                    command.insert("name".into(), Dynamic::from(c.name.clone()));
                    command.insert("side".into(), Dynamic::from(c.side.clone()));
                    command.insert("level".into(), Dynamic::from(c.level.clone()));
                    command.insert("parent".into(), c.parent.clone().map_or(Dynamic::UNIT, Dynamic::from));
                    (c.id.clone().into(), Dynamic::from_map(command))
                })
                .collect();
            let mut map = Map::new();
            map.insert("units".into(), Dynamic::from_map(units));
            map.insert("leaders".into(), Dynamic::from_map(leaders));
            map.insert("sides".into(), Dynamic::from_array(sides));
            map.insert("commands".into(), Dynamic::from_map(commands));
            Ok(map)
        },
    );
}

/// The text of `path` inside `folder`: only a regular file inside it (no
/// absolute paths, no `..` or link out of it, never a fifo, which would hang).
fn read(folder: &Path, path: &str) -> Result<String, Box<EvalAltResult>> {
    if Path::new(path).is_absolute() {
        return fail(format!(
            "order_of_battle(\"{path}\"): give a path inside the scenario folder {}",
            folder.display()
        ));
    }
    let folders = Confined::new([folder.to_path_buf()], "scenario folder");
    if folders.first_root().is_none() {
        return fail(format!("order_of_battle(\"{path}\"): there is no scenario folder {}", folder.display()));
    }
    folders.read(Path::new(path)).map_err(|err| format!("order_of_battle(\"{path}\"): {err}").into())
}
