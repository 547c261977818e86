//! The layer rule of docs/architecture.md, read from the code itself: every
//! path into the crate under `src/` (`crate::…`, `super::…`, a `use` of a
//! child module, and `confapi::…` in the binary) points at a module of the
//! same top-level module or of a layer below; and no two modules import
//! each other, directly or around a longer circle.
//!
//! Test code under `src/` counts too: a unit test that needs a layer above
//! its module belongs in this suite.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules from the bottom up; a module may import those of
/// a lower layer, never those of its own layer or one above.
const LAYERS: &[&[&str]] = &[
    &["json", "memory", "access_log", "log_writer"],
    &["model"],
    &["dataset"],
    &["domain"],
    &["storage"],
    &["cache", "exports", "sync"],
    &["webhooks"],
    &["http"],
    &["main"],
];

fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&top))
}

type ModPath = Vec<String>;

struct Source {
    file: String,
    module: ModPath,
    /// The code with comments and string literals blanked (same offsets).
    code: String,
    /// The child modules the file declares (`mod x;` or `mod x {`).
    children: BTreeSet<String>,
}

/// One reference from a module to another, where it stands.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    from: ModPath,
    to: ModPath,
    at: String,
}

fn module_of(relative: &Path) -> ModPath {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs").to_string();
    match stem.as_str() {
        "lib" if parts.is_empty() => {}
        "mod" => {}
        _ => parts.push(stem),
    }
    parts
}

/// Comments, string and char literals replaced by spaces, newlines kept,
/// so that offsets still give line numbers.
fn blank_non_code(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
                blank(&mut out, i, end);
                i = end;
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                if bytes.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                let end = text[start..]
                    .find(&close)
                    .map_or(bytes.len(), |n| start + n + close.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let end = (j + 1).min(bytes.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\u{..}'), not a lifetime.
                let rest = &text[i + 1..];
                let len = if rest.starts_with('\\') {
                    rest.find('\'').map(|n| n + 1)
                } else {
                    rest.chars()
                        .next()
                        .filter(|c| rest[c.len_utf8()..].starts_with('\''))
                        .map(|c| c.len_utf8() + 1)
                };
                match len {
                    Some(len) => {
                        blank(&mut out, i, i + 1 + len);
                        i += 1 + len;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("blanking keeps UTF-8 boundaries")
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The paths of a use tree (or a plain path) starting at `at`: each leaf
/// as its segments.
fn parse_tree(code: &[u8], at: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let skip_ws = |at: &mut usize| {
        while *at < code.len() && code[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    let mut path = prefix.to_vec();
    loop {
        skip_ws(at);
        if *at < code.len() && code[*at] == b'{' {
            *at += 1;
            loop {
                skip_ws(at);
                if *at >= code.len() || code[*at] == b'}' {
                    *at += 1;
                    return;
                }
                parse_tree(code, at, &path, out);
                skip_ws(at);
                if *at < code.len() && code[*at] == b',' {
                    *at += 1;
                }
            }
        }
        let start = *at;
        while *at < code.len() && is_ident(code[*at]) {
            *at += 1;
        }
        if start == *at {
            // `*` or the end of the path.
            if *at < code.len() && code[*at] == b'*' {
                *at += 1;
            }
            out.push(path);
            return;
        }
        path.push(String::from_utf8_lossy(&code[start..*at]).into_owned());
        skip_ws(at);
        if code[*at..].starts_with(b"::") {
            *at += 2;
            continue;
        }
        // `as alias`, a call, a type's end: the path ends here.
        out.push(path);
        return;
    }
}

fn read_sources(root: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|path: PathBuf| {
            let relative = path.strip_prefix(root).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            let code = blank_non_code(&text);
            let mut children = BTreeSet::new();
            for line in code.lines() {
                let line = line.trim_start().trim_start_matches("pub ");
                let line = line.trim_start_matches("pub(crate) ");
                if let Some(rest) = line.strip_prefix("mod ") {
                    let name: String = rest
                        .bytes()
                        .take_while(|&b| is_ident(b))
                        .map(char::from)
                        .collect();
                    children.insert(name);
                }
            }
            Source {
                file: format!("src/{}", relative.display()),
                module: if relative == Path::new("main.rs") {
                    vec!["main".to_string()]
                } else {
                    module_of(relative)
                },
                code,
                children,
            }
        })
        .collect()
}

fn line_of(code: &str, offset: usize) -> usize {
    code[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// Every reference of every file to another module of the crate.
fn edges(sources: &[Source]) -> Vec<Edge> {
    let modules: BTreeSet<&ModPath> = sources.iter().map(|s| &s.module).collect();
    // The longest prefix of a path that names a module.
    let resolve = |path: &[String]| -> Option<ModPath> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|candidate| modules.contains(candidate))
    };
    let mut found = Vec::new();
    for source in sources {
        let code = source.code.as_bytes();
        let in_binary = source.module == ["main"];
        let mut i = 0;
        while i < code.len() {
            if !is_ident(code[i]) || (i > 0 && (is_ident(code[i - 1]) || code[i - 1] == b':')) {
                i += 1;
                continue;
            }
            let word_end = i + code[i..].iter().take_while(|&&b| is_ident(b)).count();
            let word = &source.code[i..word_end];
            let start = i;
            i = word_end;
            if !code[word_end..].starts_with(b"::") {
                continue;
            }
            // Where the path is rooted, and what follows the root.
            let (base, mut at): (ModPath, usize) = match word {
                "crate" if !in_binary => (Vec::new(), word_end + 2),
                "confapi" if in_binary => (Vec::new(), word_end + 2),
                "super" => {
                    let mut base = source.module.clone();
                    base.pop();
                    let mut at = word_end + 2;
                    while source.code[at..].starts_with("super::") {
                        base.pop();
                        at += "super::".len();
                    }
                    (base, at)
                }
                "self" => (source.module.clone(), word_end + 2),
                // A child module named by a relative path (`use child::X`).
                child if source.children.contains(child) && !in_binary => {
                    let mut base = source.module.clone();
                    base.push(child.to_string());
                    (base, word_end + 2)
                }
                _ => continue,
            };
            let mut paths = Vec::new();
            parse_tree(code, &mut at, &base, &mut paths);
            let line = line_of(&source.code, start);
            for path in paths {
                // In the binary, `confapi::x` is the library's `x`.
                let Some(target) = resolve(&path) else {
                    continue;
                };
                if target != source.module {
                    found.push(Edge {
                        from: source.module.clone(),
                        to: target,
                        at: format!("{}:{line}", source.file),
                    });
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

fn name(module: &ModPath) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

fn upward_imports(edges: &[Edge]) -> Vec<String> {
    let mut problems = Vec::new();
    for edge in edges {
        let (Some(from), Some(to)) = (edge.from.first(), edge.to.first()) else {
            continue;
        };
        if from == to {
            continue;
        }
        match (layer_of(from), layer_of(to)) {
            (Some(a), Some(b)) if b < a => {}
            (Some(a), Some(b)) => problems.push(format!(
                "{}: {} (layer {a}) imports {} (layer {b}){}",
                edge.at,
                name(&edge.from),
                name(&edge.to),
                if a == b {
                    ", a module of its own layer"
                } else {
                    ", a layer above it"
                }
            )),
            _ => problems.push(format!(
                "{}: {} or {} is in no layer of tests/api/architecture.rs",
                edge.at,
                name(&edge.from),
                name(&edge.to)
            )),
        }
    }
    problems
}

/// Import circles among modules: strongly connected components of the
/// graph of references, where a parent's declaration of its children
/// (`mod x;`) is no edge but its use or re-export of them is.
fn circles(edges: &[Edge]) -> Vec<String> {
    let mut graph: BTreeMap<&ModPath, BTreeSet<&ModPath>> = BTreeMap::new();
    for edge in edges {
        // A module may use its ancestors' items (its parent re-exports or
        // defines what its children share).
        if edge.from.starts_with(&edge.to) {
            continue;
        }
        graph.entry(&edge.from).or_default().insert(&edge.to);
    }
    // Tarjan's algorithm.
    struct State<'g> {
        index: BTreeMap<&'g ModPath, usize>,
        low: BTreeMap<&'g ModPath, usize>,
        stack: Vec<&'g ModPath>,
        on_stack: BTreeSet<&'g ModPath>,
        components: Vec<Vec<&'g ModPath>>,
    }
    fn visit<'g>(
        v: &'g ModPath,
        graph: &BTreeMap<&'g ModPath, BTreeSet<&'g ModPath>>,
        s: &mut State<'g>,
    ) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, graph, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.components.push(component);
            }
        }
    }
    let mut state = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    let nodes: Vec<&ModPath> = graph.keys().copied().collect();
    for v in nodes {
        if !state.index.contains_key(v) {
            visit(v, &graph, &mut state);
        }
    }
    state
        .components
        .into_iter()
        .map(|component| {
            let members: BTreeSet<&ModPath> = component.into_iter().collect();
            let references: Vec<String> = edges
                .iter()
                .filter(|e| members.contains(&e.from) && members.contains(&e.to))
                .filter(|e| !e.from.starts_with(&e.to))
                .map(|e| format!("  {}: {} -> {}", e.at, name(&e.from), name(&e.to)))
                .collect();
            format!(
                "import circle among {}:\n{}",
                members
                    .iter()
                    .map(|m| name(m))
                    .collect::<Vec<_>>()
                    .join(", "),
                references.join("\n")
            )
        })
        .collect()
}

fn crate_sources() -> Vec<Source> {
    read_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn every_module_imports_only_layers_below_it() {
    let sources = crate_sources();
    let tops: BTreeSet<&str> = sources
        .iter()
        .filter_map(|s| s.module.first().map(String::as_str))
        .collect();
    let unplaced: Vec<&str> = tops.into_iter().filter(|t| layer_of(t).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "top-level modules in no layer (add them to LAYERS and docs/architecture.md): {unplaced:?}"
    );
    let problems = upward_imports(&edges(&sources));
    assert!(
        problems.is_empty(),
        "upward imports:\n{}",
        problems.join("\n")
    );
}

#[test]
fn no_modules_import_each_other() {
    let problems = circles(&edges(&crate_sources()));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checker itself, on made-up sources: it must see what it is for.
#[test]
fn the_checker_finds_upward_imports_and_circles() {
    let source = |file: &str, module: &[&str], code: &str| Source {
        file: file.to_string(),
        module: module.iter().map(|s| s.to_string()).collect(),
        code: blank_non_code(code),
        children: BTreeSet::new(),
    };
    let sources = vec![
        source("src/model/mod.rs", &["model"], "use crate::domain::catalog::X;\n"),
        source(
            "src/domain/catalog.rs",
            &["domain", "catalog"],
            "// crate::http::nothing\nlet s = \"crate::http::x\";\nuse super::{search::Index, feed};\n",
        ),
        source("src/domain/search.rs", &["domain", "search"], "fn f() { super::catalog::at(1) }\n"),
        source("src/domain/feed.rs", &["domain", "feed"], "use crate::json::{Writer, to_vec};\n"),
        source("src/http/mod.rs", &["http"], "use crate::domain::catalog;\n"),
    ];
    let edges = edges(&sources);
    assert_eq!(
        upward_imports(&edges),
        vec!["src/model/mod.rs:1: model (layer 1) imports domain::catalog (layer 3), a layer above it"]
    );
    let circles = circles(&edges);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(circles[0].starts_with("import circle among domain::catalog, domain::search:"));
    assert!(circles[0].contains("src/domain/catalog.rs:3: domain::catalog -> domain::search"));
    assert!(circles[0].contains("src/domain/search.rs:1: domain::search -> domain::catalog"));
}
