//! The layer rule of docs/architecture.md, read from the code itself: every
//! path into the crate under `src/` (`crate::…`, `super::…`, `self::…`, a
//! child module's name, a name a `use` binds to a module, and `confapi::…`
//! in the binary) points at a module of the same top-level module or of a
//! layer below; and no two modules import each other, directly or around a
//! longer circle.
//!
//! Test code under `src/` counts too: a unit test that needs a layer above
//! its module belongs in this suite. `super::` and `self::` inside an
//! inline module (`mod tests { … }`) start from that module; a `use` that
//! names a module (`use crate::domain;`, `use crate as root;`,
//! `use crate::domain::views_v1 as views;`) makes its name a path into the
//! crate for the rest of its module.
//!
//! The checker must be able to fail: it counts the module files and
//! references it read against a floor near today's numbers (an empty or
//! misread `src/` fails), and its own tests feed it small trees that break
//! the rule in each way it must see.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

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
    &["main", "fuzz"],
];

/// What the checker must have read of `src/` for its verdict to mean
/// anything: near today's numbers (7 December: 150 module files, 1,125
/// references between modules), so that a tree it misreads fails.
const FLOOR: Floor = Floor {
    files: FLOOR_FILES,
    edges: FLOOR_EDGES,
};

struct Floor {
    files: usize,
    edges: usize,
}

fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&top))
}

type ModPath = Vec<String>;

/// An inline module (`mod name { … }`): where its braces stand in the
/// file, and its whole path.
struct Inline {
    start: usize,
    end: usize,
    module: ModPath,
}

struct Source {
    file: String,
    module: ModPath,
    /// The code with comments and string literals blanked (same offsets).
    code: String,
    /// The child modules the file declares (`mod x;` or `mod x {`).
    children: BTreeSet<String>,
    /// Its inline modules, outermost first.
    inline: Vec<Inline>,
}

impl Source {
    fn new(file: &str, module: ModPath, text: &str) -> Source {
        let code = blank_non_code(text);
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
        let inline = inline_modules(&code, &module);
        Source {
            file: file.to_string(),
            module,
            code,
            children,
            inline,
        }
    }

    /// The innermost inline module around `offset`, if any.
    fn scope_at(&self, offset: usize) -> Option<usize> {
        (0..self.inline.len())
            .rev()
            .find(|&i| self.inline[i].start <= offset && offset < self.inline[i].end)
    }

    /// The module code at `offset` is in.
    fn module_at(&self, scope: Option<usize>) -> &ModPath {
        scope.map_or(&self.module, |i| &self.inline[i].module)
    }
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

fn skip_ws(code: &[u8], at: &mut usize) {
    while *at < code.len() && code[*at].is_ascii_whitespace() {
        *at += 1;
    }
}

/// The words of the code that may start a path: identifiers not inside
/// another word and not after `::`, as (start, end).
fn words(code: &[u8]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        if !is_ident(code[i]) || (i > 0 && (is_ident(code[i - 1]) || code[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let end = i + code[i..].iter().take_while(|&&b| is_ident(b)).count();
        found.push((i, end));
        i = end;
    }
    found
}

/// A leaf of a use tree, or the end of a plain path: its segments as
/// written (`crate`, `super`, `self` included), and the name a `use` of it
/// binds (`as x`, else its last segment; none for a glob or `as _`).
struct Leaf {
    path: Vec<String>,
    binds: Option<String>,
}

/// The leaves of a use tree (or a plain path) starting at `at`, which is
/// left after it.
fn parse_tree(code: &[u8], at: &mut usize, prefix: &[String], out: &mut Vec<Leaf>) {
    let mut path = prefix.to_vec();
    loop {
        skip_ws(code, at);
        if *at < code.len() && code[*at] == b'{' {
            *at += 1;
            loop {
                skip_ws(code, at);
                if *at >= code.len() || code[*at] == b'}' {
                    *at += 1;
                    return;
                }
                let before = *at;
                parse_tree(code, at, &path, out);
                skip_ws(code, at);
                if *at < code.len() && code[*at] == b',' {
                    *at += 1;
                } else if *at == before {
                    *at += 1; // not a use tree: step over it
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
            out.push(Leaf { path, binds: None });
            return;
        }
        path.push(String::from_utf8_lossy(&code[start..*at]).into_owned());
        skip_ws(code, at);
        if code[*at..].starts_with(b"::") {
            *at += 2;
            continue;
        }
        // `as alias`, a call, a type's end: the path ends here.
        let mut binds = match path.last().map(String::as_str) {
            Some("self") => path.len().checked_sub(2).map(|i| path[i].clone()),
            last => last.map(str::to_string),
        };
        if code[*at..].starts_with(b"as") && !code.get(*at + 2).is_some_and(|&b| is_ident(b)) {
            let mut alias = *at + 2;
            skip_ws(code, &mut alias);
            let end = alias + code[alias..].iter().take_while(|&&b| is_ident(b)).count();
            if end > alias {
                let name = String::from_utf8_lossy(&code[alias..end]).into_owned();
                binds = (name != "_").then_some(name);
                *at = end;
            }
        }
        out.push(Leaf { path, binds });
        return;
    }
}

/// The inline modules of a file (`mod name {`), each with its extent and
/// its path below the file's module.
fn inline_modules(code: &str, module: &ModPath) -> Vec<Inline> {
    let bytes = code.as_bytes();
    let mut found: Vec<Inline> = Vec::new();
    for (start, end) in words(bytes) {
        if &code[start..end] != "mod" {
            continue;
        }
        let mut at = end;
        skip_ws(bytes, &mut at);
        let name_start = at;
        while at < bytes.len() && is_ident(bytes[at]) {
            at += 1;
        }
        let name = &code[name_start..at];
        skip_ws(bytes, &mut at);
        if name.is_empty() || bytes.get(at) != Some(&b'{') {
            continue;
        }
        // Its closing brace (comments and strings are blanked).
        let open = at;
        let mut depth = 0usize;
        let mut close = bytes.len();
        for (i, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let parent = found
            .iter()
            .rev()
            .find(|m| m.start <= start && start < m.end)
            .map_or(module, |m| &m.module);
        let mut path = parent.clone();
        path.push(name.to_string());
        found.push(Inline {
            start: open,
            end: close,
            module: path,
        });
    }
    found
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
        .map(|path| {
            let relative = path.strip_prefix(root).unwrap();
            let module = if relative == Path::new("main.rs") {
                vec!["main".to_string()]
            } else {
                module_of(relative)
            };
            Source::new(
                &format!("src/{}", relative.display()),
                module,
                &std::fs::read_to_string(&path).unwrap(),
            )
        })
        .collect()
}

fn line_of(code: &str, offset: usize) -> usize {
    code[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The names `use` binds to modules of the crate, by the inline module
/// they stand in (None: the file's own) and the name.
type Aliases = HashMap<(Option<usize>, String), ModPath>;

/// Where a path as written leads in the crate, if it is a path into the
/// crate: from the crate root (`crate`; `confapi` in the binary), the
/// module it stands in (`self`, `super`, counted from the inline module
/// around it), a name a `use` bound to a module, or a child module.
fn absolute(
    source: &Source,
    scope: Option<usize>,
    aliases: &Aliases,
    path: &[String],
) -> Option<ModPath> {
    let in_binary = source.module == ["main"];
    let here = source.module_at(scope);
    let (first, mut rest) = path.split_first()?;
    let mut base: ModPath = match first.as_str() {
        "crate" if !in_binary => Vec::new(),
        "confapi" if in_binary => Vec::new(),
        "super" => {
            let mut base = here.clone();
            base.pop();
            base
        }
        "self" => here.clone(),
        name => match aliases.get(&(scope, name.to_string())) {
            Some(module) => module.clone(),
            // A child module named by a relative path (`use child::X`).
            None if scope.is_none() && !in_binary && source.children.contains(name) => {
                let mut base = here.clone();
                base.push(name.to_string());
                base
            }
            None => return None,
        },
    };
    while let Some((segment, after)) = rest.split_first() {
        if segment != "super" {
            break;
        }
        base.pop();
        rest = after;
    }
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(base)
}

/// The names each `use` of a file binds to a module of the crate (or to
/// the crate itself), by scope; a `use` may start from a name another bound.
fn aliases(source: &Source, modules: &BTreeSet<&ModPath>) -> Aliases {
    let code = source.code.as_bytes();
    let uses: Vec<usize> = words(code)
        .into_iter()
        .filter(|&(start, end)| {
            &source.code[start..end] == "use" && code.get(end).is_some_and(u8::is_ascii_whitespace)
        })
        .map(|(_, end)| end)
        .collect();
    let mut found = Aliases::new();
    loop {
        let before = found.len();
        for &end in &uses {
            let scope = source.scope_at(end);
            let mut at = end;
            let mut leaves = Vec::new();
            parse_tree(code, &mut at, &[], &mut leaves);
            for leaf in leaves {
                let Some(name) = leaf.binds else { continue };
                let Some(target) = absolute(source, scope, &found, &leaf.path) else {
                    continue;
                };
                if target.is_empty() || modules.contains(&target) {
                    found.entry((scope, name)).or_insert(target);
                }
            }
        }
        if found.len() == before {
            return found;
        }
    }
}

/// Every reference of every file to another module of the crate, from the
/// file's module.
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
        let aliases = aliases(source, &modules);
        let mut after = 0;
        for (start, end) in words(code) {
            if start < after || !code[end..].starts_with(b"::") {
                continue;
            }
            let scope = source.scope_at(start);
            let mut at = start;
            let mut leaves = Vec::new();
            parse_tree(code, &mut at, &[], &mut leaves);
            let line = line_of(&source.code, start);
            for leaf in leaves {
                let Some(path) = absolute(source, scope, &aliases, &leaf.path) else {
                    continue;
                };
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
            // Its inner words are read (`{a::b}` in `crate::{a::b}`).
            after = at;
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

/// Every problem of a tree: too little read to judge it, top-level modules
/// in no layer, imports of the same layer or above, import circles.
fn check(sources: &[Source], floor: &Floor) -> Vec<String> {
    let edges = edges(sources);
    let mut problems = Vec::new();
    if sources.is_empty() || sources.len() < floor.files {
        problems.push(format!(
            "read {} module files under src/, expected at least {}: is this the crate's source? (FLOOR_FILES)",
            sources.len(),
            floor.files
        ));
    }
    if edges.is_empty() || edges.len() < floor.edges {
        problems.push(format!(
            "read {} references between modules, expected at least {}: does the checker still read the code? (FLOOR_EDGES)",
            edges.len(),
            floor.edges
        ));
    }
    let tops: BTreeSet<&str> = sources
        .iter()
        .filter_map(|s| s.module.first().map(String::as_str))
        .collect();
    let unplaced: Vec<&str> = tops.into_iter().filter(|t| layer_of(t).is_none()).collect();
    if !unplaced.is_empty() {
        problems.push(format!(
            "top-level modules in no layer (add them to LAYERS and docs/architecture.md): {unplaced:?}"
        ));
    }
    problems.extend(upward_imports(&edges));
    problems.extend(circles(&edges));
    problems
}

fn crate_sources() -> Vec<Source> {
    read_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// FLOOR's numbers, a little below today's (150 and 1,125), so that a
/// module merged into another does not fail the suite, and a misread tree does.
const FLOOR_FILES: usize = 130;
const FLOOR_EDGES: usize = 950;

#[test]
fn it_reads_the_whole_crate() {
    let sources = crate_sources();
    let edges = edges(&sources);
    assert!(
        sources.len() >= FLOOR.files && edges.len() >= FLOOR.edges,
        "read {} module files and {} references under src/, expected at least {} and {} \
         (if the crate really shrank, lower FLOOR_FILES and FLOOR_EDGES with the reason)",
        sources.len(),
        edges.len(),
        FLOOR.files,
        FLOOR.edges
    );
}

#[test]
fn every_module_imports_only_layers_below_it() {
    let sources = crate_sources();
    let problems: Vec<String> = check(&sources, &FLOOR)
        .into_iter()
        .filter(|p| !p.starts_with("import circle"))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_modules_import_each_other() {
    let problems = circles(&edges(&crate_sources()));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---- the checker itself, on made-up trees: it must see what it is for ----

/// A made-up `src/` of `files` (path below src/, text), read back as the
/// checker reads the crate's.
fn tree(files: &[(&str, &str)]) -> Vec<Source> {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    for (path, text) in files {
        let path = src.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    read_sources(&src)
}

/// No floor: only the rule.
const ANY: Floor = Floor { files: 0, edges: 0 };

/// A small tree that keeps the rule: the cases below each add one file.
const CLEAN: &[(&str, &str)] = &[
    ("lib.rs", "pub mod domain;\npub mod http;\npub mod model;\n"),
    ("model/mod.rs", "pub struct Event;\n"),
    ("domain/mod.rs", "pub mod catalog;\npub mod views;\n"),
    (
        "domain/catalog.rs",
        "use crate::model::Event;\npub fn f(_: Event) {}\n",
    ),
    (
        "domain/views.rs",
        "use super::catalog::f;\npub fn render() {}\n",
    ),
    (
        "http/mod.rs",
        "use crate::domain::views;\npub fn serve() { views::render() }\n",
    ),
];

fn with(replaced: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut files: Vec<(&str, &str)> = CLEAN
        .iter()
        .filter(|(path, _)| !replaced.iter().any(|(p, _)| p == path))
        .copied()
        .collect();
    files.extend_from_slice(replaced);
    files
}

/// The tree's problems are `upward` and the circles they close (the clean
/// tree's http imports what model is below).
fn assert_upward(sources: &[Source], upward: &[&str]) {
    let problems = check(sources, &ANY);
    let (circles, others): (Vec<&String>, Vec<&String>) = problems
        .iter()
        .partition(|p| p.starts_with("import circle among"));
    assert_eq!(others, upward, "{problems:?}");
    assert!(circles.len() <= 1, "{problems:?}");
}

/// With `catalog` (the clean tree's domain/catalog.rs replaced by it), the
/// tree's one problem is the circle of catalog and views (which imports
/// catalog), catalog's side read at `line`.
fn assert_catalog_views_circle(catalog: &'static str, line: usize) {
    let problems = check(&tree(&with(&[("domain/catalog.rs", catalog)])), &ANY);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let reference = format!("src/domain/catalog.rs:{line}: domain::catalog -> domain::views");
    assert!(
        problems[0].starts_with("import circle among domain::catalog, domain::views:")
            && problems[0].contains(&reference),
        "{problems:?}"
    );
}

#[test]
fn the_checker_passes_a_clean_tree_and_reads_its_references() {
    let sources = tree(CLEAN);
    assert_eq!(check(&sources, &ANY), Vec::<String>::new());
    let edges: BTreeSet<String> = edges(&sources)
        .iter()
        .map(|e| format!("{} -> {}", name(&e.from), name(&e.to)))
        .collect();
    assert_eq!(
        edges.iter().map(String::as_str).collect::<Vec<_>>(),
        [
            "domain::catalog -> model",
            "domain::views -> domain::catalog",
            "http -> domain::views",
        ]
    );
}

#[test]
fn the_checker_fails_on_an_empty_tree() {
    let sources = tree(&[]);
    let problems = check(&sources, &FLOOR);
    assert!(
        problems[0].starts_with("read 0 module files under src/"),
        "{problems:?}"
    );
    assert!(problems[1].starts_with("read 0 references"), "{problems:?}");
    // Even without a floor, nothing read is no verdict.
    assert_eq!(check(&sources, &ANY).len(), 2);
    // And a tree far smaller than the crate fails the floor.
    let small = check(&tree(CLEAN), &FLOOR);
    assert!(
        small[0].starts_with("read 6 module files under src/"),
        "{small:?}"
    );
}

#[test]
fn the_checker_fails_on_an_alias_reaching_upward() {
    // `use crate as root;` then `root::http::…`: an import of http from
    // model, through a name only the `use` gives.
    let sources = tree(&with(&[(
        "model/mod.rs",
        "use crate as root;\npub struct Event;\n\npub fn f() { root::http::serve() }\n",
    )]));
    assert_upward(
        &sources,
        &["src/model/mod.rs:4: model (layer 1) imports http (layer 7), a layer above it"],
    );
    // `use crate::domain::views as v;` then `v::render()`, from model: the
    // `use` and the call through its name.
    let sources = tree(&with(&[(
        "model/mod.rs",
        "use crate::domain::views as v;\npub struct Event;\n\npub fn f() { v::render() }\n",
    )]));
    assert_upward(
        &sources,
        &[
            "src/model/mod.rs:1: model (layer 1) imports domain::views (layer 3), a layer above it",
            "src/model/mod.rs:4: model (layer 1) imports domain::views (layer 3), a layer above it",
        ],
    );
    // `use crate::domain;` then `domain::views::render()` from catalog,
    // which views imports: a circle through the alias's deeper path.
    assert_catalog_views_circle(
        "use crate::domain;\nuse crate::model::Event;\npub fn f(_: Event) { domain::views::render() }\n",
        3,
    );
}

#[test]
fn the_checker_fails_on_a_super_in_an_inline_mod_reaching_upward() {
    // In model's inline tests module, `super` is model and `super::super`
    // the crate root.
    let sources = tree(&with(&[(
        "model/mod.rs",
        "pub struct Event;\n\n#[cfg(test)]\nmod tests {\n    use super::super as root;\n\n    fn f() { root::http::serve() }\n}\n",
    )]));
    assert_upward(
        &sources,
        &["src/model/mod.rs:7: model (layer 1) imports http (layer 7), a layer above it"],
    );
    // Two levels of inline modules: three `super`s from `b` reach the root.
    let sources = tree(&with(&[(
        "model/mod.rs",
        "pub struct Event;\n\nmod a {\n    mod b {\n        use super::super::super::http::serve;\n    }\n}\n",
    )]));
    assert_upward(
        &sources,
        &["src/model/mod.rs:5: model (layer 1) imports http (layer 7), a layer above it"],
    );
    // In catalog's inline tests module, `super::super` is domain, so
    // `super::super::views` is domain::views, which imports catalog: a
    // circle (read from the file's own module, one level too high, the
    // path named no module and the reference was dropped).
    assert_catalog_views_circle(
        "use crate::model::Event;\npub fn f(_: Event) {}\n\n#[cfg(test)]\nmod tests {\n    use super::super::views::render;\n}\n",
        6,
    );
    // `self` in an inline module is that module: no reference out of it.
    let sources = tree(&with(&[(
        "model/mod.rs",
        "pub struct Event;\n\nmod tests {\n    mod http { pub fn serve() {} }\n    fn f() { self::http::serve() }\n}\n",
    )]));
    assert_eq!(check(&sources, &ANY), Vec::<String>::new());
}

/// The checker on in-memory sources: comments and strings are no code,
/// and a circle names each of its references.
#[test]
fn the_checker_finds_upward_imports_and_circles() {
    let source = |file: &str, module: &[&str], code: &str| {
        Source::new(file, module.iter().map(|s| s.to_string()).collect(), code)
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
