//! Typed positions in an event's lists, and values kept per position: a
//! submission's position cannot index the speakers, and a per-submission
//! table answers only to a submission's position.

use crate::model::{
    Answer, Question, Review, Room, SpeakerProfile, Submission, SubmissionType, Tag, Track,
};

/// A position in one of an event's lists. Each list has its own type, so a
/// submission's position cannot be used to look up a speaker profile; it
/// indexes its own list (`event.submissions[ix]`) and the per-item vectors
/// of the catalog (`Per<SubmissionIx, _>`).
macro_rules! positions {
    ($($(#[$meta:meta])* $name:ident => $item:ty;)+) => {$(
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $name {
            /// Every position of a list of `len` items, in list order.
            pub fn all(len: usize) -> impl Iterator<Item = $name> {
                (0..len as u32).map($name)
            }

            pub fn get(self) -> usize {
                self.0 as usize
            }
        }

        impl From<u32> for $name {
            fn from(i: u32) -> $name {
                $name(i)
            }
        }

        impl From<$name> for usize {
            fn from(ix: $name) -> usize {
                ix.get()
            }
        }

        // Over items held by value or shared (`Arc`, the event's big lists).
        impl<T: std::borrow::Borrow<$item>> std::ops::Index<$name> for Vec<T> {
            type Output = $item;
            fn index(&self, ix: $name) -> &$item {
                self[ix.get()].borrow()
            }
        }
    )+};
}

positions! {
    /// A submission's position in `event.submissions`.
    SubmissionIx => Submission;
    /// A speaker profile's position in `event.speakers`.
    ProfileIx => SpeakerProfile;
    /// An answer's position in `event.answers`.
    AnswerIx => Answer;
    /// A review's position in `event.reviews`.
    ReviewIx => Review;
    /// A question's position in `event.questions`.
    QuestionIx => Question;
    /// A position in `event.submission_types`.
    TypeIx => SubmissionType;
    /// A position in `event.tracks`.
    TrackIx => Track;
    /// A position in `event.rooms`.
    RoomIx => Room;
    /// A position in `event.tags`.
    TagIx => Tag;
}

/// The position of type `I` for a list index (for `index_by`).
pub fn at<I: From<u32>>(i: usize) -> I {
    I::from(i as u32)
}

/// One value per item of a list, indexed by that list's position type only.
#[derive(Debug, Default, Clone)]
pub struct Per<I, T> {
    values: Vec<T>,
    _index: std::marker::PhantomData<I>,
}

impl<I, T> FromIterator<T> for Per<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(items: It) -> Self {
        Per {
            values: items.into_iter().collect(),
            _index: std::marker::PhantomData,
        }
    }
}

macro_rules! per_index {
    ($($name:ident),+) => {$(
        impl<T> std::ops::Index<$name> for Per<$name, T> {
            type Output = T;
            fn index(&self, ix: $name) -> &T {
                &self.values[ix.get()]
            }
        }
    )+};
}

per_index!(SubmissionIx, ProfileIx, AnswerIx, ReviewIx);

/// A list of items per position of one list, all in one vector: the items
/// of position `i` are `items[starts[i]..starts[i + 1]]`. One allocation
/// for a whole event where a map of vectors takes one per owner.
#[derive(Debug, Clone)]
pub struct Groups<I, T> {
    starts: Vec<u32>,
    items: Vec<T>,
    _index: std::marker::PhantomData<I>,
}

impl<I: Copy + Into<usize>, T> Groups<I, T> {
    /// Groups `(owner, item)` pairs for `len` owners; each group keeps the
    /// order the pairs come in.
    pub(super) fn new(len: usize, pairs: impl Iterator<Item = (I, T)> + Clone) -> Self {
        let mut starts = vec![0u32; len + 1];
        for (owner, _) in pairs.clone() {
            starts[owner.into() + 1] += 1;
        }
        for i in 0..len {
            starts[i + 1] += starts[i];
        }
        let mut next: Vec<u32> = starts[..len].to_vec();
        let mut slots: Vec<Option<T>> = (0..starts[len]).map(|_| None).collect();
        for (owner, item) in pairs {
            let at = &mut next[owner.into()];
            slots[*at as usize] = Some(item);
            *at += 1;
        }
        Groups {
            starts,
            items: slots.into_iter().flatten().collect(),
            _index: std::marker::PhantomData,
        }
    }

    /// One group per owner, in owner order.
    pub fn from_groups<G: IntoIterator<Item = T>>(groups: impl IntoIterator<Item = G>) -> Self {
        let mut starts = vec![0u32];
        let mut items = Vec::new();
        for group in groups {
            items.extend(group);
            starts.push(u32::try_from(items.len()).expect("fewer than 2^32 items"));
        }
        items.shrink_to_fit();
        Groups {
            starts,
            items,
            _index: std::marker::PhantomData,
        }
    }

    /// Items in all groups.
    pub fn item_count(&self) -> usize {
        self.items.len()
    }

    /// Every owner's group, in owner order.
    pub fn groups(&self) -> impl Iterator<Item = &[T]> {
        self.starts
            .windows(2)
            .map(|w| &self.items[w[0] as usize..w[1] as usize])
    }

    pub fn of(&self, owner: I) -> &[T] {
        let i = owner.into();
        &self.items[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Prefetches where `owner`'s group starts (`memory::prefetch`).
    pub fn prefetch_start(&self, owner: I) {
        if let Some(start) = self.starts.get(owner.into()) {
            crate::memory::prefetch_value(start);
        }
    }

    /// Prefetches `owner`'s group (its start read, so best after
    /// `prefetch_start`).
    pub fn prefetch_group(&self, owner: I) {
        crate::memory::prefetch_value(self.of(owner));
    }
}
