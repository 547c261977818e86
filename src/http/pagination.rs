//! Pagination (behaviour.md §5): `page`/`page_size` or `limit`/`offset`,
//! the page style winning when both are sent, with absolute `next` and
//! `previous` links in the request's own style and path.

use serde::Serialize;

use super::error::ApiError;
use super::params::Params;

pub const DEFAULT_PAGE_SIZE: usize = 25;

#[derive(Serialize)]
pub struct Page<T: Serialize> {
    pub count: usize,
    pub next: Option<String>,
    pub previous: Option<String>,
    pub results: Vec<T>,
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
}

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
            }
        } else {
            Pagination {
                style: Style::Offset {
                    offset: offset.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX)),
                },
                size: size_of(limit),
            }
        }
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
    pub fn page<T: Serialize>(
        &self,
        count: usize,
        results: Vec<T>,
        link_base: &str,
        params: &Params,
    ) -> Page<T> {
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
                (
                    (number < last).then(|| link(&[("page", (number + 1).to_string())])),
                    (number > 1).then(|| link(&[("page", (number - 1).to_string())])),
                )
            }
            Style::Offset { offset } => {
                let size = self.size;
                let offsets = |o: usize| [("limit", size.to_string()), ("offset", o.to_string())];
                (
                    (offset.saturating_add(size) < count).then(|| link(&offsets(offset + size))),
                    (offset > 0).then(|| link(&offsets(offset.saturating_sub(size)))),
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
