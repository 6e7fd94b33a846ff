//! Measurement: lengths as rules write them, ground and figure scale, stands on a table.

mod error;
mod geometry;
mod length;
mod scale;

pub use error::MeasureError;
pub use geometry::{
    Aspect, EPS, Footprint, Overlap, Point, Stand, aspect, contact_length, distance, in_arc, overlap, run_in, within,
};
pub use length::{Length, MAX_INCHES, parse_length};
pub use scale::{DEFAULT_YARDS_PER_PACE, Scale};

#[cfg(test)]
mod tests;
