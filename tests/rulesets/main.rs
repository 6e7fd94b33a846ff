//! The shipped rulesets, through the library: every table against its seed,
//! the procedures' results, traces, effects and exact odds.

mod compiled;
mod contracts;
mod exact_engine;
mod ff_napoleonic;
mod fields_and_observations;
mod generated_programs;
mod linear_warfare;
mod marker_kinds;
mod monte_carlo;
mod nested_contracts;
mod overlay_slips;
mod overlays;
mod republique;
mod result_texts;
mod rule_values;
mod sequence;
mod support;
mod unit_templates;
mod volley_example;
