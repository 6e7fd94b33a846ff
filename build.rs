//! Rebuilds when the shipped rulesets change: they are built into the binary (`rules::shipped`).

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=build.rs");
}
