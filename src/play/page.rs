//! The play page: the board (drawn from the rules as the report's viewer draws it), the
//! game's state inline so that it shows without a second request, and a short script that
//! sends the person's moves and draws the answer. `?select=SQ` in the address opens with
//! that square's piece picked up, its moves marked.

use super::Session;
use crate::diagram::live::DRAW_JS;
use crate::diagram::svg::viewer_board;

pub fn html(s: &Session) -> String {
    let state = serde_json::to_string(&s.state()).unwrap_or_else(|_| "{}".into()).replace("</", "<\\/");
    let title = s.board().variant().title();
    let board = viewer_board(s.board(), &format!("{title}: you against fairylab"), "p");
    format!(
        r#"<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}: play</title><style>
body{{font-family:sans-serif;color:#222;margin:1em}}#wrap{{display:flex;flex-wrap:wrap;gap:1.5em}}#side{{min-width:280px;max-width:420px}}
#status{{font-weight:bold;font-size:1.1em}}#moves{{font-family:monospace;white-space:pre-wrap;max-height:360px;overflow:auto;background:#f7f7f7;padding:0.5em}}
#error{{color:#c0392b}}button{{font-size:1em;margin-right:0.4em}}svg{{cursor:pointer}}</style></head><body>
<div id="wrap"><div id="board">{board}</div><div id="side"><p id="status"></p><p id="score"></p><p id="error"></p>
<p><button id="white">New game as White</button><button id="black">New game as Black</button> <a href="/game.pgn" download="game.pgn">Download PGN</a></p>
<div id="moves"></div></div></div>
<script type="application/json" id="state">{state}</script>
<script>{DRAW_JS}{PLAY_JS}</script></body></html>"#
    )
}

const PLAY_JS: &str = r##"(function(){
var svg=document.querySelector('#board svg'),S=JSON.parse(document.getElementById('state').textContent),sel=null;
var $=function(i){return document.getElementById(i);};
function sqAt(e){var p=svg.createSVGPoint();p.x=e.clientX;p.y=e.clientY;p=p.matrixTransform(svg.getScreenCTM().inverse());
var r=[].find.call(svg.querySelectorAll('rect[data-square]'),function(r){var x=+r.getAttribute('x'),y=+r.getAttribute('y'),w=+r.getAttribute('width');
return p.x>=x&&p.x<x+w&&p.y>=y&&p.y<y+w;});return r&&r.dataset.square;}
function score(s){return s===null?'':(Math.abs(s)>=29000?(s>0?'White mates':'Black mates'):(s>0?'+':'')+(s/100).toFixed(2));}
function draw(){flDraw(svg,'p',S.frame);document.body.dataset.ply=S.moves.length;
if(sel){var m=svg.querySelector('[data-layer=marks]'),h='';S.legal.filter(function(o){return o.f===sel;}).forEach(function(o){
var r=svg.querySelector('rect[data-square="'+o.t+'"]'),w=+r.getAttribute('width'),x=+r.getAttribute('x')+w/2,y=+r.getAttribute('y')+w/2;
h+='<circle cx="'+x+'" cy="'+y+'" r="9" fill="'+(o.n?'#e67e22':'#2e8b57')+'" data-mark="target"/>';});
var r=svg.querySelector('rect[data-square="'+sel+'"]');if(r)h+='<rect x="'+r.getAttribute('x')+'" y="'+r.getAttribute('y')+'" width="'+r.getAttribute('width')+'" height="'+r.getAttribute('width')+'" fill="none" stroke="#2e6fb5" stroke-width="4"/>';
m.innerHTML+=h;}
var st=S.result?'Game over: '+S.result+' ('+S.termination+')':(S.to_move===S.human?'Your move ('+S.human+')':'fairylab is thinking');
$('status').textContent=st;var last=null;S.scores.forEach(function(s){if(s!==null)last=s;});
$('score').textContent=last===null?'':'fairylab\'s score ('+S.nodes+' nodes a move): '+score(last)+' (White\'s view)';
var t='';S.moves.forEach(function(m,i){t+=(i%2?' ':(i?'\n':'')+(i/2+1)+'. ')+m;});$('moves').textContent=t;}
function send(path,body){$('error').textContent='';fetch(path,{method:'POST',body:body||''}).then(function(r){return r.json();}).then(function(j){
if(j.error){$('error').textContent=j.error;}else{S=j;}sel=null;draw();});}
svg.addEventListener('click',function(e){var q=sqAt(e);if(!q)return;
var to=S.legal.filter(function(o){return o.f===sel&&o.t===q;});
if(to.length){var m=to[0].m;if(to.length>1){var c=prompt('Which move? '+to.map(function(o){return o.m;}).join(' '),to[0].m);if(!c)return;m=c;}
send('/move',m);return;}
sel=S.legal.some(function(o){return o.f===q;})?q:null;draw();});
$('white').onclick=function(){send('/new?side=white');};$('black').onclick=function(){send('/new?side=black');};
var q=/[?&]select=([a-z]+\d+)/.exec(location.search);if(q)sel=q[1];draw();})();
"##;
