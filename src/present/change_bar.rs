//! A change in percentage points as a bar either side of an axis: left for less, right for
//! more (the terminal's tornado chart, shared by `compare` and attribution).

/// Characters each side of the axis.
pub const HALF: usize = 12;

/// `points` as a bar `half` characters long at `biggest`, either side of `│`: the left part
/// right-aligned, so bars of one chart line up on the axis.
pub fn change_bar(points: f64, biggest: f64, half: usize) -> String {
    const EIGHTHS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    // Bars left of the axis are drawn from it outwards, a whole block at a time: a partial
    // block would hang at the wrong end of the bar.
    let eighths = if biggest > 0.0 { (points.abs() / biggest * (half * 8) as f64).round() as usize } else { 0 };
    let eighths = eighths.min(half * 8);
    if points < 0.0 {
        let blocks = eighths.div_ceil(8);
        format!("{}{}│{}", " ".repeat(half - blocks), "█".repeat(blocks), " ".repeat(half))
    } else {
        let bar = "█".repeat(eighths / 8) + EIGHTHS[eighths % 8];
        let len = bar.chars().count();
        format!("{}│{bar}{}", " ".repeat(half), " ".repeat(half - len))
    }
}

/// `+10.0pt`; a move too small to show at one decimal reads `<0.1pt` with its sign.
pub fn points_text(points: f64) -> String {
    if points != 0.0 && points.abs() < 0.05 {
        if points > 0.0 { "+<0.1pt".to_string() } else { "-<0.1pt".to_string() }
    } else {
        format!("{points:+.1}pt")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_stand_either_side_of_the_axis_in_proportion() {
        assert_eq!(change_bar(10.0, 10.0, 4), "    │████");
        assert_eq!(change_bar(-10.0, 10.0, 4), "████│    ");
        assert_eq!(change_bar(5.0, 10.0, 4), "    │██  ");
        assert_eq!(change_bar(-5.0, 10.0, 4), "  ██│    ");
        // A sixteenth of the width: one eighth of a block right, a whole block left.
        assert_eq!(change_bar(1.25, 10.0, 4), "    │▌   ");
        assert_eq!(change_bar(-1.25, 10.0, 4), "   █│    ");
        assert_eq!(change_bar(0.0, 10.0, 4), "    │    ");
        assert_eq!(change_bar(3.0, 0.0, 4), "    │    ");
        for p in [-10.0, -3.3, 0.0, 0.01, 7.7, 10.0] {
            assert_eq!(change_bar(p, 10.0, 4).chars().count(), 9, "{p}");
        }
    }

    #[test]
    fn points_read_with_their_sign() {
        assert_eq!(points_text(10.0), "+10.0pt");
        assert_eq!(points_text(-2.345), "-2.3pt");
        assert_eq!(points_text(0.0), "+0.0pt");
        assert_eq!(points_text(0.01), "+<0.1pt");
        assert_eq!(points_text(-0.01), "-<0.1pt");
    }
}
