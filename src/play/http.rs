//! The page's server: plain HTTP/1.1 on a local socket (std::net; a few routes need no
//! framework), one thread per connection so that a browser's idle spare connection never
//! holds up the next request.
//!
//! Routes: `GET /` the page (with the game's state in it), `GET /state` the state as JSON,
//! `POST /move` with the move's text as body, `POST /new?side=white|black`, `GET /game.pgn`.

use super::{page, PlayError, Session};
use crate::Color;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A request as far as the routes need it.
struct Request {
    method: String,
    path: String,
    query: String,
    body: String,
}

fn read_request(stream: &TcpStream) -> Result<Request, PlayError> {
    let io = |e: std::io::Error| PlayError::Io(e.to_string());
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(io)?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return Err(PlayError::BadRequest(format!("request line '{}'", line.trim())));
    };
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).map_err(io)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().map_err(|_| PlayError::BadRequest("Content-Length".into()))?;
            }
        }
    }
    // Moves are a few bytes: a large body is no move.
    if length > 4096 {
        return Err(PlayError::BadRequest(format!("a body of {length} bytes")));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(io)?;
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    Ok(Request {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        body: String::from_utf8_lossy(&body).trim().to_string(),
    })
}

/// (status, content type, extra header, body).
type Response = (u16, &'static str, String, String);

fn json(session: &Session) -> Response {
    let body = serde_json::to_string(&session.state()).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    (200, "application/json", String::new(), body)
}

fn refused(e: PlayError) -> Response {
    let body = serde_json::json!({ "error": e.to_string() }).to_string();
    (400, "application/json", String::new(), body)
}

fn route(r: &Request, session: &Mutex<Session>) -> Response {
    let Ok(mut s) = session.lock() else {
        return (500, "text/plain", String::new(), "the game's state was lost".into());
    };
    match (r.method.as_str(), r.path.as_str()) {
        ("GET", "/") => (200, "text/html; charset=utf-8", String::new(), page::html(&s)),
        ("GET", "/state") => json(&s),
        ("GET", "/game.pgn") => (
            200,
            "application/x-chess-pgn",
            "Content-Disposition: attachment; filename=\"game.pgn\"\r\n".into(),
            s.pgn(),
        ),
        ("POST", "/move") => match s.play(&r.body) {
            Ok(()) => json(&s),
            Err(e) => refused(e),
        },
        ("POST", "/new") => {
            let side = if r.query.contains("side=black") { Color::Black } else { Color::White };
            match s.restart(side) {
                Ok(()) => json(&s),
                Err(e) => refused(e),
            }
        }
        _ => (404, "text/plain", String::new(), format!("no {} {}", r.method, r.path)),
    }
}

fn answer(mut stream: TcpStream, session: &Mutex<Session>) {
    // A connection that sends nothing is given up, not waited on for ever.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let (status, kind, extra, body) = match read_request(&stream) {
        Ok(r) => route(&r, session),
        Err(PlayError::Io(_)) => return,
        Err(e) => refused(e),
    };
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Internal Server Error",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.as_bytes()));
}

/// Serves `session` on `listener` until the process ends.
pub fn serve(listener: TcpListener, session: Session) -> Result<(), PlayError> {
    let session = Arc::new(Mutex::new(session));
    for stream in listener.incoming() {
        let stream = stream.map_err(|e| PlayError::Io(e.to_string()))?;
        let session = Arc::clone(&session);
        std::thread::spawn(move || answer(stream, &session));
    }
    Ok(())
}
