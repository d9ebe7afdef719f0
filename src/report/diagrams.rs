//! The report's board and piece diagrams: the start position and the moves of every piece
//! orthodox chess lacks, again with each option that changes it. Drawn from the variant
//! file the report names, written beside the pages as SVG files; the Markdown page links
//! them and report.html carries them inline, so it stays one file.

use super::ReportData;
use crate::diagram::{self, Placement};
use crate::Variant;

/// One diagram: its file under the report folder, its caption and its SVG.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub file: String,
    pub caption: String,
    pub svg: String,
}

/// The report's diagrams; none when its variant no longer loads by name (a user's file
/// moved away), since a diagram drawn from other rules would mislead.
pub fn of(d: &ReportData) -> Vec<Figure> {
    let Ok(v) = Variant::load_with(&d.variant, &d.options) else { return vec![] };
    let mut out = vec![Figure {
        file: "diagrams/start.svg".into(),
        caption: "The start position".into(),
        svg: diagram::start_position(v),
    }];
    let new_pieces: Vec<_> =
        v.piece_kinds().into_iter().filter(|k| !k.royal && !k.pawn && k.orthodox.is_none()).collect();
    let moves = |v: Variant, letter: char| diagram::piece_moves(v, &Placement::Demo(letter)).ok().map(|m| m.0);
    for k in &new_pieces {
        if let Some(svg) = moves(v, k.letter) {
            out.push(Figure {
                file: format!("diagrams/{}.svg", k.letter),
                caption: format!("The {}'s moves ({})", k.name, k.letter),
                svg,
            });
        }
    }
    for (option, _) in v.available_options() {
        if d.options.contains(option) {
            continue;
        }
        let mut options = d.options.clone();
        options.push(option.clone());
        let Ok(with) = Variant::load_with(&d.variant, &options) else { continue };
        for &letter in v.option_pieces(option) {
            let Some(k) = with.piece_kinds().into_iter().find(|k| k.letter == letter) else { continue };
            if let Some(svg) = moves(with, letter) {
                out.push(Figure {
                    file: format!("diagrams/{letter}-{option}.svg"),
                    caption: format!("The {}'s moves with {option} ({letter})", k.name),
                    svg,
                });
            }
        }
    }
    out
}

/// The diagrams' section of report.md: each as an image link with its caption.
pub fn markdown(figures: &[Figure]) -> String {
    if figures.is_empty() {
        return String::new();
    }
    let mut s = String::from("## Board and pieces\n\n");
    // Like every section, it opens with what it shows in one bold sentence.
    s += if figures.len() > 1 {
        "**The start position and the moves of the pieces this game adds or its options change.**\n\n"
    } else {
        "**The start position.**\n\n"
    };
    s += "Drawn from the variant file: quiet moves green, captures ringed red; a capture that lands away from its victim marks the landing squares orange and the pieces it removes with a red cross.\n\n";
    for f in figures {
        s += &format!("![{}]({})\n\n", f.caption, f.file);
    }
    s
}

/// report.html with each diagram's image replaced by the SVG itself.
pub fn inline(html: &str, figures: &[Figure]) -> String {
    let mut out = html.to_string();
    for f in figures {
        let key = format!("src=\"{}\"", f.file);
        let Some(at) = out.find(&key) else { continue };
        let (Some(start), Some(end)) = (out[..at].rfind("<img"), out[at..].find('>').map(|e| at + e + 1)) else {
            continue;
        };
        out.replace_range(start..end, &format!("<figure>{}<figcaption>{}</figcaption></figure>", f.svg, f.caption));
    }
    // A figure may not sit in a paragraph, and one paragraph each would stack them.
    out.replace("<p><figure>", "<figure>").replace("</figure></p>", "</figure>")
}
