//! Pagination (behaviour.md §5): `page`/`page_size` or `limit`/`offset`,
//! the page style winning when both are sent, with absolute `next` and
//! `previous` links in the request's own style and path.

use serde::Serialize;

use super::error::ApiError;
use super::params::Params;

pub const DEFAULT_PAGE_SIZE: usize = 25;

/// The list envelope; `results` is any sequence (a `Vec`, or the items
/// of a page rendered as they are written: `context::Rendered`).
#[derive(Serialize)]
pub struct Page<L: Serialize> {
    pub count: usize,
    pub next: Option<String>,
    pub previous: Option<String>,
    pub results: L,
}

#[derive(Debug, Clone, Copy)]
enum Style {
    /// `page` is 1-based.
    Page {
        number: usize,
    },
    Offset {
        offset: usize,
    },
}

#[derive(Debug, Clone, Copy)]
pub struct Pagination {
    style: Style,
    size: usize,
    /// v1's links: the link to page 1 carries no `page`, the link back
    /// to offset 0 no `offset` (as pretalx's, DRF's).
    bare_first_page: bool,
}

/// v1's page sizes (pretalx-v1.md §5.1): 50 by default, at most 250.
pub const V1_PAGE_SIZE: usize = 50;
pub const V1_MAX_PAGE_SIZE: usize = 250;

impl Pagination {
    /// Reads the four parameters, recording bad ones in `params`.
    pub fn from_params(params: &mut Params, default_size: usize, max_size: usize) -> Self {
        let page = params.natural("page");
        let page_size = params.natural("page_size");
        let limit = params.natural("limit");
        let offset = params.natural("offset");
        let size_of = |value: Option<u64>| match value {
            None | Some(0) => default_size.min(max_size),
            Some(n) => usize::try_from(n).unwrap_or(usize::MAX).min(max_size),
        };
        if page.is_some() || page_size.is_some() {
            Pagination {
                style: Style::Page {
                    number: page.map_or(1, |n| usize::try_from(n).unwrap_or(usize::MAX)),
                },
                size: size_of(page_size),
                bare_first_page: false,
            }
        } else {
            Pagination {
                style: Style::Offset {
                    offset: offset.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX)),
                },
                size: size_of(limit),
                bare_first_page: false,
            }
        }
    }

    /// v1 (pretalx-v1.md §5.1): `page` and `page_size` (a size of 0 or not
    /// a number is the default; above the maximum, the maximum), unless
    /// both `limit` and `offset` are given; a `page` that is not a number
    /// is an invalid page. `offset_only`: the rooms, which page only by
    /// `limit` and `offset`.
    pub fn v1(
        params: &Params,
        default_size: usize,
        max_size: usize,
        offset_only: bool,
    ) -> Result<Self, ApiError> {
        let number = |name: &str| params.get(name).and_then(|v| v.parse::<usize>().ok());
        let size_of = |value: Option<usize>| match value {
            None | Some(0) => default_size.min(max_size),
            Some(n) => n.min(max_size),
        };
        let limit = params.get("limit");
        let offset = params.get("offset");
        if offset_only || (limit.is_some() && offset.is_some()) {
            return Ok(Pagination {
                style: Style::Offset {
                    offset: number("offset").unwrap_or(0),
                },
                size: size_of(number("limit")),
                bare_first_page: true,
            });
        }
        let page = match params.get("page") {
            None => 1,
            Some(text) => text.parse::<usize>().map_err(|_| ApiError::InvalidPage)?,
        };
        Ok(Pagination {
            style: Style::Page { number: page },
            size: size_of(number("page_size")),
            bare_first_page: true,
        })
    }

    /// The index range of the page in a list of `count` items.
    pub fn window(&self, count: usize) -> Result<std::ops::Range<usize>, ApiError> {
        match self.style {
            Style::Page { number } => {
                let last = count.div_ceil(self.size).max(1);
                if number < 1 || number > last {
                    return Err(ApiError::InvalidPage);
                }
                let start = (number - 1) * self.size;
                Ok(start..(start + self.size).min(count))
            }
            Style::Offset { offset } => {
                let start = offset.min(count);
                Ok(start..offset.saturating_add(self.size).min(count))
            }
        }
    }

    /// The envelope; `link_base` is the absolute URL of the request's path.
    pub fn page<L: Serialize>(
        &self,
        count: usize,
        results: L,
        link_base: &str,
        params: &Params,
    ) -> Page<L> {
        let link = |replace: &[(&str, String)]| {
            let mut query = form_urlencoded::Serializer::new(String::new());
            for (k, v) in &params.pairs {
                if !replace.iter().any(|(name, _)| name == k) {
                    query.append_pair(k, v);
                }
            }
            for (k, v) in replace {
                query.append_pair(k, v);
            }
            format!("{link_base}?{}", query.finish())
        };
        let (next, previous) = match self.style {
            Style::Page { number } => {
                let last = count.div_ceil(self.size).max(1);
                let previous = match number {
                    0 | 1 => None,
                    2 if self.bare_first_page => Some(link_without(params, link_base, "page", &[])),
                    _ => Some(link(&[("page", (number - 1).to_string())])),
                };
                (
                    (number < last).then(|| link(&[("page", (number + 1).to_string())])),
                    previous,
                )
            }
            Style::Offset { offset } => {
                let size = self.size;
                let offsets = |o: usize| [("limit", size.to_string()), ("offset", o.to_string())];
                let previous = match offset {
                    0 => None,
                    o if o <= size && self.bare_first_page => {
                        let limit = [("limit", size.to_string())];
                        Some(link_without(params, link_base, "offset", &limit))
                    }
                    o => Some(link(&offsets(o.saturating_sub(size)))),
                };
                (
                    (offset.saturating_add(size) < count).then(|| link(&offsets(offset + size))),
                    previous,
                )
            }
        };
        Page {
            count,
            next,
            previous,
            results,
        }
    }
}

/// The request's URL without one parameter and with `replace` (v1's
/// links back to page 1 and to offset 0).
fn link_without(
    params: &Params,
    link_base: &str,
    name: &str,
    replace: &[(&str, String)],
) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (k, v) in &params.pairs {
        if k != name && !replace.iter().any(|(r, _)| r == k) {
            query.append_pair(k, v);
        }
    }
    for (k, v) in replace {
        query.append_pair(k, v);
    }
    let query = query.finish();
    if query.is_empty() {
        link_base.to_string()
    } else {
        format!("{link_base}?{query}")
    }
}
