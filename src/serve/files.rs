//! The results folders named on the command line, read through `GET /files/{folder}/{path}`.
//! Nothing else on disk is readable: a path is refused when it is longer than
//! [`MAX_PATH`] bytes, absolute, or has a component that is empty, `.`, `..`, or holds a
//! backslash or NUL (after percent-decoding, so `%2e%2e` is `..`); what is left is
//! resolved with every symlink followed and must still lie inside the folder's own
//! resolved path, and be a regular file of at most [`MAX_FILE`] bytes.

use std::path::{Path, PathBuf};

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use knightnet::error::InputError;
use serde::Serialize;

use super::{Shared, refuse};

/// Longest relative path accepted, in bytes.
pub const MAX_PATH: usize = 1024;
/// Largest file served, in bytes.
pub const MAX_FILE: u64 = 64 * 1024 * 1024;

/// A readable folder: its resolved path (symlinks followed) and the name it was given by.
#[derive(Debug, Clone)]
pub struct Folder {
    /// The folder as named on the command line.
    pub name: String,
    /// Its canonical path.
    pub root: PathBuf,
}

impl Folder {
    /// The folder at `path`, which must be an existing directory.
    pub fn new(path: &Path) -> Result<Folder, InputError> {
        let root = std::fs::canonicalize(path).map_err(|e| {
            InputError::param(format!(
                "results folder {} cannot be read: {e}; give existing folders",
                path.display()
            ))
        })?;
        if !root.is_dir() {
            return Err(InputError::param(format!(
                "results folder {} is not a folder; give folders such as experiments/results/quickstart",
                path.display()
            )));
        }
        Ok(Folder {
            name: path.display().to_string(),
            root,
        })
    }

    /// The file at `relative` inside this folder, or the status and reason it is refused
    /// with (404 when nothing is there, 400 for a path that is not allowed).
    pub fn resolve(&self, relative: &str) -> Result<PathBuf, (StatusCode, &'static str)> {
        let bad = |why| Err((StatusCode::BAD_REQUEST, why));
        if relative.len() > MAX_PATH {
            return bad("the path is too long");
        }
        if relative.starts_with('/') {
            return bad("absolute paths are refused");
        }
        for part in relative.split('/') {
            if part.is_empty() || part == "." || part == ".." || part.contains(['\\', '\0']) {
                return bad("the path must name a file inside the folder, without . or ..");
            }
        }
        let real = std::fs::canonicalize(self.root.join(relative))
            .map_err(|_| (StatusCode::NOT_FOUND, "no such file"))?;
        if !real.starts_with(&self.root) {
            return bad("the path leaves the folder");
        }
        Ok(real)
    }
}

/// One readable folder as listed by `GET /api/folders`.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// Its index in `/files/{index}/...`.
    pub index: usize,
    /// The folder as named on the command line.
    pub name: String,
}

/// `GET /api/folders`: the readable folders.
pub async fn folders(State(app): State<Shared>) -> Json<Vec<Listed>> {
    Json(
        app.folders
            .iter()
            .enumerate()
            .map(|(index, f)| Listed {
                index,
                name: f.name.clone(),
            })
            .collect(),
    )
}

/// `GET /files/{folder}/{path}`: a regular file inside a readable folder.
pub async fn file(
    State(app): State<Shared>,
    UrlPath((folder, path)): UrlPath<(usize, String)>,
) -> Response {
    let Some(f) = app.folders.get(folder) else {
        return refuse(StatusCode::NOT_FOUND, "no such folder");
    };
    let real = match f.resolve(&path) {
        Ok(p) => p,
        Err((status, why)) => return refuse(status, why),
    };
    let meta = match tokio::fs::metadata(&real).await {
        Ok(m) if m.is_file() && m.len() <= MAX_FILE => m,
        Ok(m) if m.is_file() => {
            return refuse(StatusCode::PAYLOAD_TOO_LARGE, "the file is too large");
        }
        _ => return refuse(StatusCode::NOT_FOUND, "not a regular file"),
    };
    match tokio::fs::read(&real).await {
        Ok(bytes) if bytes.len() as u64 == meta.len() => {
            ([(header::CONTENT_TYPE, content_type(&real))], bytes).into_response()
        }
        _ => refuse(StatusCode::NOT_FOUND, "the file cannot be read"),
    }
}

/// The content type by extension; unknown files are sent as bytes to download.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => "application/json",
        Some("csv") => "text/csv; charset=utf-8",
        Some("toml" | "txt" | "md") => "text/plain; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}
