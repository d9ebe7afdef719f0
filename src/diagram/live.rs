//! A board a page redraws in the browser: each position as a small frame (where the pieces
//! stand, the last move's squares, what it removed), computed here from the rules, and the
//! short script that draws a frame onto a [`super::svg::viewer_board`]. The script knows no
//! rules: it only places the pieces it is given.

use crate::games::replay::{placement, Ply};
use crate::Board;
use serde::Serialize;

/// One position as the script draws it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Frame {
    /// The pieces: letter then square, space separated (`Ra1 pe7`).
    pub p: String,
    /// The last move's start and landing squares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub f: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t: Option<String>,
    /// Squares the last move emptied of an enemy besides its landing square.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub x: Vec<String>,
    /// The last move took on its landing square.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub c: bool,
}

/// The frame of `board`, reached by `last` (none for a start position).
pub fn frame(board: &Board, last: Option<&Ply>) -> Frame {
    let p: Vec<String> = placement(board).into_iter().map(|(sq, c)| format!("{c}{sq}")).collect();
    Frame {
        p: p.join(" "),
        f: last.map(|l| l.from.to_string()),
        t: last.map(|l| l.to.to_string()),
        x: last.map_or(vec![], |l| l.taken.iter().filter(|(s, _)| *s != l.to).map(|(s, _)| s.to_string()).collect()),
        c: last.is_some_and(|l| l.taken.iter().any(|(s, _)| *s == l.to)),
    }
}

/// `flDraw(svg, prefix, frame)`: draws a frame onto a viewer board whose piece definitions
/// carry `prefix`. Squares are found by their `data-square` rectangles.
pub const DRAW_JS: &str = r##"function flDraw(svg,pre,fr){
var L=function(n){return svg.querySelector('[data-layer='+n+']');},R=function(s){return svg.querySelector('rect[data-square="'+s+'"]');};
var c=function(s){var r=R(s);if(!r)return null;var w=+r.getAttribute('width');return [+r.getAttribute('x')+w/2,+r.getAttribute('y')+w/2,w];};
var h='';(fr.p?fr.p.split(' '):[]).forEach(function(t){var q=c(t.slice(1)),l=t[0];if(!q)return;
h+='<use href="#'+pre+'-'+(l===l.toUpperCase()?'w':'b')+l.toUpperCase()+'" x="'+q[0]+'" y="'+q[1]+'"/>';});
L('pieces').innerHTML=h;var s='',m='';
[fr.f,fr.t].forEach(function(t){var q=t&&c(t);if(q)s+='<rect x="'+(q[0]-q[2]/2)+'" y="'+(q[1]-q[2]/2)+'" width="'+q[2]+'" height="'+q[2]+'" fill="#f7ec74" opacity="0.75"/>';});
if(fr.c){var q=c(fr.t);m+='<circle cx="'+q[0]+'" cy="'+q[1]+'" r="21" fill="none" stroke="#c0392b" stroke-width="4"/>';}
(fr.x||[]).forEach(function(t){var q=c(t);if(q)m+='<path d="M'+(q[0]-15)+' '+(q[1]-15)+' L'+(q[0]+15)+' '+(q[1]+15)+' M'+(q[0]-15)+' '+(q[1]+15)+' L'+(q[0]+15)+' '+(q[1]-15)+'" stroke="#c0392b" stroke-width="5" stroke-linecap="round" data-mark="victim"/>';});
L('last').innerHTML=s;L('marks').innerHTML=m;}
"##;
