//! An overlay that changes nothing it meant to is refused by `check`, where it is written: a
//! function renamed or given another number of parameters than the base's, and a modifier list
//! or table added under a name nothing reads. Each case is a copy of ff-house-example (and its
//! base) in a folder of its own, edited as a slip would edit it.

use std::path::{Path, PathBuf};

use grognard::rules::{Problem, load_partial};
use grognard::script::check;

use crate::support::rules_dir;

/// Copies a folder and everything in it.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() { copy_folder(&path, &target) } else { std::fs::copy(&path, &target).map(|_| ()).unwrap() }
    }
}

/// ff-napoleonic and ff-house-example copied into `dir`; the overlay's folder.
fn house_copy(dir: &Path) -> PathBuf {
    for id in ["ff-napoleonic", "ff-house-example"] {
        copy_folder(&rules_dir().join(id), &dir.join(id));
    }
    dir.join("ff-house-example")
}

/// `file` of the overlay with `from` written as `to` (which must be there to edit).
fn edit(overlay: &Path, file: &str, from: &str, to: &str) {
    let path = overlay.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} holds {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// What loading and checking the overlay finds with the code `script::overlay`, and every
/// problem found (to show when a test fails).
fn slips(overlay: &Path) -> (Vec<Problem>, String) {
    let (rs, mut problems) = load_partial(&[overlay.display().to_string()], &rules_dir());
    problems.extend(check(&rs.expect("the copy loads")));
    let all = problems.iter().map(|p| format!("{} {}: {}", p.code, p.place(), p.message)).collect::<Vec<_>>();
    (problems.into_iter().filter(|p| p.code == "script::overlay").collect(), all.join("\n"))
}

/// The place of a problem inside its ruleset folder: `procedures/fire_row.rhai:4:4`.
fn place_in(problem: &Problem, overlay: &Path) -> String {
    let place = problem.place();
    place.strip_prefix(&format!("{}/", overlay.display())).unwrap_or(&place).to_string()
}

#[test]
fn the_shipped_overlays_have_no_slips() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = house_copy(dir.path());
    let (found, all) = slips(&overlay);
    assert!(found.is_empty(), "{all}");
    for id in ["ff-skirmishers", "ff-house-example"] {
        let (found, all) = slips(&rules_dir().join(id));
        assert!(found.is_empty(), "{id}: {all}");
    }
    // Tables patched, or written whole in place of the base's, are not tables an overlay adds,
    // though no procedure reads them (the base of these fixtures has none).
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/patches");
    for name in ["house", "whole"] {
        let (found, all) = slips(&fixtures.join(name));
        assert!(found.is_empty(), "{name}: {all}");
    }
}

#[test]
fn a_renamed_function_that_replaces_nothing_and_that_nothing_calls_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = house_copy(dir.path());
    edit(&overlay, "procedures/fire_row.rhai", "fn fire_row(fire_points)", "fn fire_rwo(fire_points)");
    let (found, all) = slips(&overlay);
    assert_eq!(found.len(), 1, "{all}");
    assert_eq!(
        found[0].message,
        "`fire_rwo` replaces nothing in ff-napoleonic and nothing calls it (did you mean `fire_row`?)"
    );
    assert_eq!(place_in(&found[0], &overlay), "procedures/fire_row.rhai:4:4");
    assert!(found[0].is_error());
}

#[test]
fn a_function_with_another_number_of_parameters_than_the_base_s_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = house_copy(dir.path());
    edit(&overlay, "procedures/fire_row.rhai", "fn fire_row(fire_points)", "fn fire_row(fire_points, rounding)");
    let (found, all) = slips(&overlay);
    assert_eq!(found.len(), 1, "{all}");
    // The base's line, found in its file: `fn fire_row(fire_points)`.
    let base = std::fs::read_to_string(rules_dir().join("ff-napoleonic/procedures/fire.rhai")).unwrap();
    let line = base.lines().position(|l| l.starts_with("fn fire_row(fire_points)")).unwrap() + 1;
    assert_eq!(
        found[0].message,
        format!(
            "`fire_row` takes 1 parameter in ff-napoleonic (procedures/fire.rhai:{line}), here 2: it would not \
             replace it"
        )
    );
    assert_eq!(place_in(&found[0], &overlay), "procedures/fire_row.rhai:4:4");
}

#[test]
fn a_new_function_that_something_calls_or_that_has_a_contract_is_a_function_of_the_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = house_copy(dir.path());
    // A helper the replacement calls: new, and used.
    edit(
        &overlay,
        "procedures/fire_row.rhai",
        "    base::fire_row(fire_points.round())\n}",
        "    base::fire_row(nearest(fire_points))\n}\nfn nearest(x) { x.round() }",
    );
    // And the base's function replaced beside one of another arity: an overload, not a slip.
    edit(&overlay, "procedures/fire_row.rhai", "fn nearest", "fn fire_row(a, b) { a + b }\nfn nearest");
    let (found, all) = slips(&overlay);
    assert!(found.is_empty(), "{all}");
    // A helper nothing calls is refused, with no name near it to suggest.
    edit(&overlay, "procedures/fire_row.rhai", "base::fire_row(nearest(", "base::fire_row((");
    let (found, all) = slips(&overlay);
    assert_eq!(found.len(), 1, "{all}");
    assert_eq!(found[0].message, "`nearest` replaces nothing in ff-napoleonic and nothing calls it");
    assert_eq!(place_in(&found[0], &overlay), "procedures/fire_row.rhai:9:4");
}

#[test]
fn a_modifier_list_or_table_an_overlay_adds_that_nothing_reads_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = house_copy(dir.path());
    // The house's fire modifiers written under a misspelt file name: a new list beside the base's.
    std::fs::write(
        overlay.join("modifiers/fire_modifers.yaml"),
        "title: Fire (house)\nsource: house\nmodifiers:\n  - id: close_volley\n    value: +1\n    \
         text: Close volley\n    when: situation.range <= 2\n    source: house\n",
    )
    .unwrap();
    // A table of the overlay's own that no procedure reads.
    std::fs::write(
        overlay.join("tables/muskettry.yaml"),
        "title: Musketry (house)\nsource: house\nroll: 1d6\nbands:\n  \"1-6\": steady\n\
         results:\n  steady: { text: Steady }\n",
    )
    .unwrap();
    let (found, all) = slips(&overlay);
    let messages: Vec<(String, &str)> = found.iter().map(|p| (place_in(p, &overlay), p.message.as_str())).collect();
    assert_eq!(
        messages,
        [
            (
                "modifiers/fire_modifers.yaml:1:1".to_string(),
                "modifier list `fire_modifers` is added by ff-house-example and nothing reads it: no procedure or \
                 condition names it (did you mean `fire_modifiers`?)"
            ),
            (
                "tables/muskettry.yaml:1:1".to_string(),
                "table `muskettry` is added by ff-house-example and nothing reads it: no procedure or condition \
                 names it (did you mean `musketry`?)"
            ),
        ],
        "{all}"
    );
    // Named by a procedure of the overlay, the table is read.
    edit(
        &overlay,
        "procedures/fire_row.rhai",
        "fn fire_row",
        "fn house_volley() { lookup(\"muskettry\", 3) }\nfn fire_row",
    );
    let (found, all) = slips(&overlay);
    assert!(found.iter().all(|p| !p.message.contains("muskettry")), "{all}");
}

#[test]
fn a_constant_an_overlay_adds_that_nothing_reads_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = house_copy(dir.path());
    // Meant to change the base's struggle_cap: misspelt, it would add a constant beside it.
    let manifest = overlay.join("ruleset.yaml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!(
            "{text}\nconstants:\n  struggle_cpa: {{ value: 1, text: One desperate struggle at most, source: house }}\n"
        ),
    )
    .unwrap();
    let line = text.lines().count() + 3;
    let (found, all) = slips(&overlay);
    assert_eq!(found.len(), 1, "{all}");
    assert_eq!(
        found[0].message,
        "constant `struggle_cpa` is added by ff-house-example and nothing reads it: no procedure or condition \
         names it (did you mean `struggle_cap`?)"
    );
    assert_eq!(place_in(&found[0], &overlay), format!("ruleset.yaml:{line}:3"));
    // Spelt right, it changes the base's constant: nothing to report.
    let fixed = std::fs::read_to_string(&manifest).unwrap().replace("struggle_cpa", "struggle_cap");
    std::fs::write(&manifest, fixed).unwrap();
    let (found, all) = slips(&overlay);
    assert!(found.is_empty(), "{all}");
}
