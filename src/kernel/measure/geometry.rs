//! Geometry of stands on a table: distance, firing arcs, aspect, overlaps and charge run-in.
//!
//! The table is a plain plane measured in inches: x to the right, y up the
//! table. A facing is in degrees clockwise from +y: 0 faces up the table, 90
//! faces +x. Every comparison allows [`EPS`], so that what a player would call
//! "exactly on the line" is on it despite floating point.

use serde::{Deserialize, Serialize};

/// The tolerance of every geometric comparison, in inches (and, for
/// [`Overlap::whole_bases`], in base widths).
pub const EPS: f64 = 1e-9;

/// A point on the table, in inches.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Point {
    /// Inches to the right.
    pub x: f64,
    /// Inches up the table.
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
}

// Vector arithmetic on points, kept private so `Point` stays plain data.
fn add(a: Point, b: Point) -> Point {
    Point::new(a.x + b.x, a.y + b.y)
}

fn sub(a: Point, b: Point) -> Point {
    Point::new(a.x - b.x, a.y - b.y)
}

fn mul(a: Point, k: f64) -> Point {
    Point::new(a.x * k, a.y * k)
}

fn dot(a: Point, b: Point) -> f64 {
    a.x * b.x + a.y * b.y
}

fn cross(a: Point, b: Point) -> f64 {
    a.x * b.y - a.y * b.x
}

fn norm(a: Point) -> f64 {
    a.x.hypot(a.y)
}

/// The unit vector straight ahead for a facing.
fn forward(facing: f64) -> Point {
    let (sin, cos) = facing.to_radians().sin_cos();
    Point::new(sin, cos)
}

/// The unit vector to the right for a facing (ahead turned 90 degrees clockwise).
fn right(facing: f64) -> Point {
    let (sin, cos) = facing.to_radians().sin_cos();
    Point::new(cos, -sin)
}

/// One stand (base) of troops: a rectangle placed by the centre of its front edge.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stand {
    /// Width of the front edge, in inches.
    pub frontage: f64,
    /// Front to back, in inches.
    pub depth: f64,
    /// The centre of the front edge.
    pub position: Point,
    /// Degrees clockwise from +y (0 faces up the table, 90 faces +x).
    pub facing: f64,
}

impl Stand {
    /// A stand of `frontage` by `depth` whose front edge is centred on `position`.
    pub const fn new(frontage: f64, depth: f64, position: Point, facing: f64) -> Self {
        Stand { frontage, depth, position, facing }
    }

    /// The corners: front-left, front-right, rear-right, rear-left (left and
    /// right as the stand faces).
    pub fn corners(&self) -> [Point; 4] {
        let half_front = mul(right(self.facing), self.frontage / 2.0);
        let back = mul(forward(self.facing), -self.depth);
        let front_left = sub(self.position, half_front);
        let front_right = add(self.position, half_front);
        [front_left, front_right, add(front_right, back), add(front_left, back)]
    }

    /// The centre of the rectangle.
    pub fn centre(&self) -> Point {
        add(self.position, mul(forward(self.facing), -self.depth / 2.0))
    }
}

/// The stands of one unit, in whatever formation.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Footprint {
    /// The unit's stands.
    pub stands: Vec<Stand>,
}

impl Footprint {
    /// A footprint of the given stands.
    pub fn new(stands: Vec<Stand>) -> Self {
        Footprint { stands }
    }

    /// `count` stands side by side, front edges on one line whose centre is
    /// `front_centre`, listed from left to right.
    pub fn line(count: usize, front_centre: Point, facing: f64, frontage: f64, depth: f64) -> Self {
        let step = right(facing);
        let first = -(count as f64 - 1.0) / 2.0;
        let stands = (0..count)
            .map(|i| {
                let position = add(front_centre, mul(step, (first + i as f64) * frontage));
                Stand::new(frontage, depth, position, facing)
            })
            .collect();
        Footprint { stands }
    }

    /// `count` stands one behind another, the first with its front edge centred
    /// on `front_centre`, listed from front to rear.
    pub fn column(count: usize, front_centre: Point, facing: f64, frontage: f64, depth: f64) -> Self {
        let back = mul(forward(facing), -depth);
        let stands =
            (0..count).map(|i| Stand::new(frontage, depth, add(front_centre, mul(back, i as f64)), facing)).collect();
        Footprint { stands }
    }

    /// `count` stands in rows of `wide` side by side, the front row's front edge
    /// centred on `front_centre`, rows one behind another: a line is one row,
    /// a column of two stands' frontage is `wide = 2`. Listed front row first,
    /// left to right. A last row with fewer stands is centred.
    pub fn block(count: usize, wide: usize, front_centre: Point, facing: f64, frontage: f64, depth: f64) -> Self {
        let wide = wide.max(1);
        let back = mul(forward(facing), -depth);
        let mut stands = Vec::with_capacity(count);
        let mut row = 0;
        while stands.len() < count {
            let in_row = wide.min(count - stands.len());
            let centre = add(front_centre, mul(back, row as f64));
            stands.extend(Footprint::line(in_row, centre, facing, frontage, depth).stands);
            row += 1;
        }
        Footprint { stands }
    }

    /// The front `n` stands (the first row of a block).
    pub fn front(&self, n: usize) -> Footprint {
        Footprint { stands: self.stands.iter().take(n).copied().collect() }
    }

    /// The mean of the stands' centres; `None` when there are no stands.
    pub fn centre(&self) -> Option<Point> {
        if self.stands.is_empty() {
            return None;
        }
        let sum = self.stands.iter().fold(Point::default(), |acc, s| add(acc, s.centre()));
        Some(mul(sum, 1.0 / self.stands.len() as f64))
    }
}

/// The nearest distance, in inches, between any stand of `a` and any stand of
/// `b`, rectangle to rectangle.
///
/// Convention: 0 when stands touch or overlap (a gap of at most [`EPS`] counts
/// as touching); infinite when either footprint has no stands.
pub fn distance(a: &Footprint, b: &Footprint) -> f64 {
    let mut nearest = f64::INFINITY;
    for sa in &a.stands {
        for sb in &b.stands {
            nearest = nearest.min(rectangle_distance(&sa.corners(), &sb.corners()));
        }
    }
    nearest
}

fn rectangle_distance(a: &[Point; 4], b: &[Point; 4]) -> f64 {
    if !separated(a, b) {
        return 0.0;
    }
    // Apart, the nearest pair always has a corner of one on an edge of the other.
    let mut nearest = f64::INFINITY;
    for (points, edges) in [(a, b), (b, a)] {
        for &p in points {
            for i in 0..4 {
                nearest = nearest.min(point_to_segment(p, edges[i], edges[(i + 1) % 4]));
            }
        }
    }
    nearest
}

/// Whether some axis separates two convex quadrilaterals by more than `EPS`.
fn separated(a: &[Point; 4], b: &[Point; 4]) -> bool {
    // The edge normals of both settle it for rectangles; the axis between the
    // first corners also covers stands shrunk to a line or a point.
    let axes = [
        sub(a[1], a[0]),
        sub(a[2], a[1]),
        sub(b[1], b[0]),
        sub(b[2], b[1]),
        Point::new(-(b[0].y - a[0].y), b[0].x - a[0].x),
    ];
    axes.into_iter().any(|edge| {
        let length = norm(edge);
        if length <= 0.0 || !length.is_finite() {
            return false;
        }
        let axis = Point::new(-edge.y / length, edge.x / length);
        let (a_min, a_max) = extent(a, axis);
        let (b_min, b_max) = extent(b, axis);
        b_min - a_max > EPS || a_min - b_max > EPS
    })
}

/// The least and greatest projection of some points on an axis.
fn extent(points: &[Point], axis: Point) -> (f64, f64) {
    points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &p| {
        let d = dot(p, axis);
        (lo.min(d), hi.max(d))
    })
}

fn point_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let ab = sub(b, a);
    let length_sq = dot(ab, ab);
    let t = if length_sq > 0.0 { (dot(sub(p, a), ab) / length_sq).clamp(0.0, 1.0) } else { 0.0 };
    norm(sub(p, add(a, mul(ab, t))))
}

/// A half-plane: the points `q` with `normal . (q - through) >= -EPS`.
struct HalfPlane {
    through: Point,
    normal: Point,
}

impl HalfPlane {
    fn signed(&self, q: Point) -> f64 {
        dot(self.normal, sub(q, self.through))
    }
}

/// Whether any part of `target` lies in the firing arc projected from `base`'s
/// front edge.
///
/// The arc is the region ahead of the front edge's line, bounded by a ray from
/// each front corner turned `arc_degrees` outward from straight ahead (Field of
/// Fire: 45 for infantry, 30 for artillery). `arc_degrees` is clamped to
/// 0..=90: 0 is the strip straight ahead of the front edge, 90 the whole
/// half-plane ahead of it.
///
/// Convention: a target exactly on an arc edge, or exactly touching the front
/// edge's line, is in the arc (within [`EPS`]). An empty target is not.
pub fn in_arc(base: &Stand, arc_degrees: f64, target: &Footprint) -> bool {
    let (sin, cos) = arc_degrees.clamp(0.0, 90.0).to_radians().sin_cos();
    let ahead = forward(base.facing);
    let rightward = right(base.facing);
    let [front_left, front_right, _, _] = base.corners();
    let planes = [
        HalfPlane { through: base.position, normal: ahead },
        // Inward normals: the left ray's points right and ahead, the right ray's left and ahead.
        HalfPlane { through: front_left, normal: add(mul(rightward, cos), mul(ahead, sin)) },
        HalfPlane { through: front_right, normal: add(mul(rightward, -cos), mul(ahead, sin)) },
    ];
    target.stands.iter().any(|stand| {
        let mut polygon = stand.corners().to_vec();
        for plane in &planes {
            polygon = clip(&polygon, plane);
            if polygon.is_empty() {
                return false;
            }
        }
        true
    })
}

/// Sutherland-Hodgman: the part of a convex polygon inside a half-plane.
fn clip(polygon: &[Point], plane: &HalfPlane) -> Vec<Point> {
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for (i, &start) in polygon.iter().enumerate() {
        let end = polygon[(i + 1) % polygon.len()];
        let (ds, de) = (plane.signed(start), plane.signed(end));
        let (start_in, end_in) = (ds >= -EPS, de >= -EPS);
        // One end in and the other out means ds != de, so the division is safe.
        let crossing = || add(start, mul(sub(end, start), ds / (ds - de)));
        if end_in {
            if !start_in {
                out.push(crossing());
            }
            out.push(end);
        } else if start_in {
            out.push(crossing());
        }
    }
    out
}

/// Which face of a unit another unit is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    /// On or ahead of the unit's front line.
    Front,
    /// Beside the unit, to its left as it faces.
    LeftFlank,
    /// Beside the unit, to its right as it faces.
    RightFlank,
    /// On or behind the unit's rear line.
    Rear,
}

/// Which face of `target` (facing `target_facing`) the `viewer` is on, judged
/// by the viewer's centre (the mean of its stands' centres).
///
/// In the target's frame, the front line runs through the foremost of its
/// corners and the rear line through the rearmost. A viewer centre on or ahead
/// of the front line is [`Aspect::Front`]; on or behind the rear line,
/// [`Aspect::Rear`] (front wins for a unit of no depth); otherwise a flank,
/// by the side of the target's centre it is on.
///
/// Conventions: "on a line" is within [`EPS`]; a viewer centre within `EPS`
/// of the target's centre line counts as the right flank; an empty target or
/// viewer gives `Front`, the aspect that grants no flank or rear bonus.
pub fn aspect(target: &Footprint, target_facing: f64, viewer: &Footprint) -> Aspect {
    let (Some(target_centre), Some(viewer_centre)) = (target.centre(), viewer.centre()) else {
        return Aspect::Front;
    };
    let ahead = forward(target_facing);
    let corners: Vec<Point> = target.stands.iter().flat_map(|s| s.corners()).collect();
    let (rear, front) = extent(&corners, ahead);
    let along = dot(viewer_centre, ahead);
    if along >= front - EPS {
        Aspect::Front
    } else if along <= rear + EPS {
        Aspect::Rear
    } else if dot(sub(viewer_centre, target_centre), right(target_facing)) < -EPS {
        Aspect::LeftFlank
    } else {
        Aspect::RightFlank
    }
}

/// How far an attacker's frontage reaches past a defender's on each flank, in
/// base widths.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Overlap {
    /// Past the defender's left flank (left as the defender faces).
    pub left: f64,
    /// Past the defender's right flank (right as the defender faces).
    pub right: f64,
}

impl Overlap {
    /// Whole bases of overlap on (left, right), rounded down, except that a
    /// count within [`EPS`] below a whole number is that number (so both
    /// 2.0000000001 and 1.9999999999 give 2).
    pub fn whole_bases(&self) -> (u32, u32) {
        // `as` saturates, and turns NaN into 0.
        let whole = |x: f64| (x + EPS).floor().max(0.0) as u32;
        (whole(self.left), whole(self.right))
    }
}

/// Republique's "unopposed overlap": how much of the attacker's frontage lies
/// beyond the defender's on each flank, projected on the defender's front
/// line, in base widths (fractional).
///
/// A frontage is the span from the leftmost to the rightmost front corner of a
/// footprint's stands, measured along the defender's front line (facing
/// `defender_facing`). Only the attacker's own frontage counts, not any gap
/// between it and the defender: an attacker wholly off to one side overlaps by
/// its own width. Left and right are as the defender faces. Empty footprints
/// or a base width that is not greater than 0 give no overlap.
pub fn overlap(defender: &Footprint, defender_facing: f64, attacker: &Footprint, base_width: f64) -> Overlap {
    if base_width.is_nan() || base_width <= 0.0 || defender.stands.is_empty() || attacker.stands.is_empty() {
        return Overlap::default();
    }
    let lateral = right(defender_facing);
    let front_corners = |f: &Footprint| -> Vec<Point> {
        f.stands
            .iter()
            .flat_map(|s| {
                let [front_left, front_right, _, _] = s.corners();
                [front_left, front_right]
            })
            .collect()
    };
    let (defender_left, defender_right) = extent(&front_corners(defender), lateral);
    let (attacker_left, attacker_right) = extent(&front_corners(attacker), lateral);
    let left = attacker_right.min(defender_left) - attacker_left;
    let right = attacker_right - attacker_left.max(defender_right);
    Overlap { left: (left / base_width).max(0.0), right: (right / base_width).max(0.0) }
}

/// How close two edges must lie to be touching, in inches: looser than [`EPS`]
/// because stands laid out at an angle carry the rounding of sines and cosines.
const TOUCH: f64 = 1e-6;

/// The length, in inches, of the boundary two footprints share: the edges of
/// their stands that lie on one line and overlap along it, summed over every
/// pair of stands. Stands meeting only at a corner share 0; stands apart share 0.
/// Used for charge contact (which stands are in contact, and on which face).
pub fn contact_length(a: &Footprint, b: &Footprint) -> f64 {
    let edges = |s: &Stand| {
        let c = s.corners();
        [(c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0])]
    };
    let mut total = 0.0;
    for sa in &a.stands {
        for sb in &b.stands {
            for (p1, p2) in edges(sa) {
                let d = sub(p2, p1);
                let len = norm(d);
                if len <= TOUCH {
                    continue;
                }
                let unit = mul(d, 1.0 / len);
                for (q1, q2) in edges(sb) {
                    // Both ends of the other edge on this edge's line.
                    if cross(unit, sub(q1, p1)).abs() > TOUCH || cross(unit, sub(q2, p1)).abs() > TOUCH {
                        continue;
                    }
                    let (t1, t2) = (dot(sub(q1, p1), unit), dot(sub(q2, p1), unit));
                    let shared = t1.max(t2).min(len) - t1.min(t2).max(0.0);
                    if shared > TOUCH {
                        total += shared;
                    }
                }
            }
        }
    }
    total
}

/// The length, in inches, of the last straight stretch of a path before
/// contact: the charge's run-in (1", 5" and 10" thresholds in the 18th-century set).
///
/// Segments in line with the last one (every earlier point within [`EPS`] of
/// its line) and heading the same way merge into it; repeated points are
/// skipped. An empty or single-point path, or one that never moves, gives 0.
pub fn run_in(path: &[Point]) -> f64 {
    let Some((&end, before)) = path.split_last() else {
        return 0.0;
    };
    // The last point that is not a repeat of the end starts the final segment.
    let Some(turn) = before.iter().rposition(|&p| norm(sub(end, p)) > EPS) else {
        return 0.0;
    };
    let mut start = before[turn];
    let heading = mul(sub(end, start), 1.0 / norm(sub(end, start)));
    for &p in before[..turn].iter().rev() {
        let back = sub(start, p);
        if norm(back) <= EPS {
            continue;
        }
        let off_line = cross(sub(p, end), heading).abs();
        if off_line > EPS || dot(back, heading) <= 0.0 {
            break;
        }
        start = p;
    }
    norm(sub(end, start))
}

/// Whether a distance falls within a range band's limit.
///
/// Convention: exactly at the limit is within it (`distance <= limit + EPS`),
/// so a target at exactly 6" is in an "up to 6 inches" band.
pub fn within(distance: f64, limit: f64) -> bool {
    distance <= limit + EPS
}
