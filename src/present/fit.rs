//! Text fitted to a terminal's width: a line too long is wrapped at spaces, never inside a
//! word, and goes on under its own text (`  telling    Target disordered...` under `Target`).

/// `text` with each line wider than `width` wrapped; as is when no width is given.
pub fn fit(text: &str, width: Option<usize>) -> String {
    let Some(width) = width.filter(|w| *w >= 30) else { return text.to_string() };
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.chars().count() <= width {
            out += line;
            continue;
        }
        out += &wrap_line(line, width, text_column(line).min(width / 2));
    }
    out
}

/// `line` wrapped at `width`, only at spaces (a band `6-8` or an id split at its hyphen would
/// misread), its continuation lines indented `indent` columns.
pub fn wrap_line(line: &str, width: usize, indent: usize) -> String {
    let indent = " ".repeat(indent);
    let options = textwrap::Options::new(width)
        .subsequent_indent(&indent)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .break_words(false);
    textwrap::fill(line, options)
}

/// Where a line's text begins: past a label set off by two spaces or more (`  telling    `,
/// `  :use ID|DIR ...   load...`, a label of several words), or by a colon (`note: `); else
/// two past its indentation.
fn text_column(line: &str) -> usize {
    let leading = line.len() - line.trim_start().len();
    let rest = &line[leading..];
    let first_end = rest.find(' ').unwrap_or(rest.len());
    if rest[..first_end].ends_with(':') {
        let after = &rest[first_end..];
        return leading + first_end + (after.len() - after.trim_start().len());
    }
    // The first gap of two spaces or more ends the label.
    match rest.find("  ") {
        Some(gap) => {
            let after = &rest[gap..];
            leading + gap + (after.len() - after.trim_start().len())
        }
        None => leading + 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_goes_on_under_its_text_and_no_word_is_split() {
        let line =
            "  telling    Target disordered & 1 stand lost. Artillery damaged & silenced. (disordered, loses 1 stand)";
        let fitted = fit(line, Some(60));
        assert_eq!(
            fitted,
            "  telling    Target disordered & 1 stand lost. Artillery\n             damaged & silenced. (disordered, loses 1 stand)"
        );
        let note = "note: Fewer than 1 fire point (after halving) uses the 1/2 row; 0 fire points is no fire.";
        assert_eq!(
            fit(note, Some(50)),
            "note: Fewer than 1 fire point (after halving) uses\n      the 1/2 row; 0 fire points is no fire."
        );
        // Short lines, and text with no width to fit, are left as they are.
        assert_eq!(fit("a\nb", Some(40)), "a\nb");
        assert_eq!(fit(line, None), line);
    }
}
