//! v1 speakers: the view, its prefetching, and speakers nested in other objects.

use super::*;

#[derive(DeriveSerialize, ToSchema)]
#[schema(as = v1::Speaker)]
pub struct SpeakerView<'a> {
    pub code: &'a str,
    pub name: &'a str,
    /// null when empty: pretalx stores an empty biography as NULL.
    pub biography: Option<&'a str>,
    /// Codes of the speaker's submissions the caller sees with names
    /// (nested in a submission: none, unless expanded).
    #[schema(schema_with = many_refs)]
    pub submissions: Refs<&'a str, SubmissionView<'a>>,
    /// null when the speaker has none (pretalx 2026; 2025 wrote `""`).
    pub avatar_url: Option<&'a str>,
    #[schema(schema_with = many_refs)]
    pub answers: AnswerRefs<'a>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timezone: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<&'a str>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_arrived: Option<bool>,
    #[schema(nullable = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availabilities: Option<Vec<AvailabilityView>>,
    /// null when empty, as pretalx's nullable field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_notes: Option<Option<&'a str>>,
}

impl<'a> V1Renderer<'a> {
    /// `prefetch_submissions` for a page of speakers: each profile and
    /// where its groups start, then its texts, user code and groups, then
    /// its user, submissions and answers, then their texts.
    pub fn prefetch_speakers(&self, positions: &[crate::domain::catalog::ProfileIx]) {
        use crate::memory::{prefetch_arcstr, prefetch_value};
        let data: &'a crate::domain::catalog::EventData = self.access.data;
        let event = &data.event;
        for &p in positions {
            prefetch_value(&event.speakers[p]);
            data.profile_submissions.prefetch_start(p);
            data.answers_of_person.prefetch_start(p);
        }
        for &p in positions {
            let profile = &event.speakers[p];
            prefetch_arcstr(&profile.user);
            prefetch_profile_texts(profile);
            data.profile_submissions.prefetch_group(p);
            data.answers_of_person.prefetch_group(p);
        }
        for &p in positions {
            if let Some(user) = self.users.get(event.speakers[p].user.as_str()) {
                prefetch_value(&**user);
            }
            for &i in data.profile_submissions.of(p) {
                prefetch_value(&event.submissions[i]);
            }
            for &a in data.answers_of_person.of(p) {
                prefetch_answer(data, a);
            }
        }
        for &p in positions {
            if let Some(user) = self.users.get(event.speakers[p].user.as_str()) {
                prefetch_user_texts(user);
            }
            for &i in data.profile_submissions.of(p) {
                prefetch_arcstr(&event.submissions[i].code);
            }
            for &a in data.answers_of_person.of(p) {
                prefetch_answer_texts(data, a);
            }
        }
    }
}

impl SpeakerView<'_> {
    /// Its texts, requested from memory before the page is serialised.
    fn prefetch_texts(&self) {
        [self.code, self.name]
            .into_iter()
            .chain(self.biography)
            .chain(self.avatar_url)
            .chain(self.email)
            .chain(self.internal_notes.flatten())
            .for_each(crate::memory::prefetch);
    }
}

impl<'a> V1Renderer<'a> {
    /// The speaker whose profile is at `position`; None when their user is
    /// unknown.
    pub fn speaker(
        &self,
        position: crate::domain::catalog::ProfileIx,
        users: &'a crate::domain::catalog::Users,
    ) -> Option<SpeakerView<'a>> {
        let access = self.access;
        let data: &'a crate::domain::catalog::EventData = access.data;
        let profile = &data.event.speakers[position];
        let user = users.get(profile.user.as_str())?;
        let orga = self.is_orga();
        let named = || self.named_submissions(position);
        let submissions = match self.child("submissions") {
            Some(child) => Refs::Objects(
                named()
                    .into_iter()
                    .map(|i| child.submission(i, users))
                    .collect(),
            ),
            None => Refs::Ids(
                named()
                    .into_iter()
                    .map(|i| data.event.submissions[i].code.as_str())
                    .collect(),
            ),
        };
        let answer_positions = self.speaker_answers(position);
        let answers = match self.child("answers") {
            Some(child) => AnswerRefs::Objects(child.answer_list(answer_positions)),
            None => AnswerRefs::Ids(answer_positions.map(|a| data.event.answers[a].id).collect()),
        };
        let view = SpeakerView {
            // The code the event knows them by (pretalx 2026: the profile's).
            code: profile.speaker_code(),
            name: &user.name,
            biography: Some(profile.biography.as_str()).filter(|b| !b.is_empty()),
            submissions,
            avatar_url: user.avatar.as_deref().filter(|url| !url.is_empty()),
            answers,
            email: orga.then_some(user.email.as_str()),
            timezone: orga.then_some(user.timezone.as_str()),
            locale: orga.then_some(user.locale.as_str()),
            has_arrived: orga.then_some(profile.has_arrived),
            availabilities: orga.then(|| self.availabilities(&profile.availabilities)),
            internal_notes: orga.then(|| nullable(&profile.internal_notes)),
        };
        view.prefetch_texts();
        Some(view)
    }
}

/// A submission's speakers: their codes, or with `expand` the speakers
/// (written by `SpeakerList`).
#[derive(DeriveSerialize)]
#[serde(untagged)]
pub enum SpeakerRefs<'a> {
    Ids(Vec<&'a str>),
    Objects(SpeakerList<'a>),
}

/// Expanded speakers of a submission, written as JSON when the list is
/// serialised: a speaker's fields as `speaker` shows them, in the same
/// order, except that a nested speaker's submissions and answers are empty
/// lists unless expanded too, as pretalx shows them
/// (`speakers_nested_read_as_their_detail` holds the two equal). Written
/// without views: with their answers they were a fifth of a page with
/// pytanis's expansion (callgrind, docs/bench-log.md).
pub struct SpeakerList<'a> {
    pub(super) renderer: V1Renderer<'a>,
    pub(super) users: &'a crate::domain::catalog::Users,
    /// Each speaker's profile and user.
    pub(super) speakers: Vec<(crate::domain::catalog::ProfileIx, &'a User)>,
}

impl Serialize for SpeakerList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_array_text(serializer, &self.speakers, |text, &(position, user)| {
            self.renderer
                .write_speaker_nested(text, position, user, self.users);
        })
    }
}

impl<'a> V1Renderer<'a> {
    /// The speaker at `position`, whose user is `user`, nested in a
    /// submission, as JSON appended to `out` (`SpeakerList`).
    pub(super) fn write_speaker_nested(
        &self,
        out: &mut Vec<u8>,
        position: crate::domain::catalog::ProfileIx,
        user: &'a User,
        users: &'a crate::domain::catalog::Users,
    ) {
        let access = self.access;
        let data: &'a crate::domain::catalog::EventData = access.data;
        let profile = &data.event.speakers[position];
        let orga = self.is_orga();
        let mut object = crate::json::ObjectText::open(out);
        object.string("code", profile.speaker_code());
        object.string("name", &user.name);
        object.optional_string(
            "biography",
            Some(profile.biography.as_str()).filter(|b| !b.is_empty()),
        );
        match self.child("submissions") {
            // pretalx gives a speaker's submissions only where its view puts
            // the caller's submissions in the serializer's context (the
            // speakers and reviews views): nested in a submission or a slot
            // they are [], expanded or not (pretalx 2026.2.1 and 2025.2.2).
            _ if matches!(self.serving, Serving::Submissions | Serving::Schedule) => {
                object.raw("submissions", "[]")
            }
            // Expanded submissions below a review's submission's speakers:
            // rare, rendered as their views.
            Some(child) => {
                let submissions: Refs<&str, SubmissionView> = Refs::Objects(
                    self.named_submissions(position)
                        .into_iter()
                        .map(|i| child.submission(i, users))
                        .collect(),
                );
                object.value("submissions", |out| {
                    // Writing views into a Vec cannot fail.
                    let _ = crate::json::append(out, &submissions);
                });
            }
            None => object.value("submissions", |out| {
                let codes: Vec<&str> = self
                    .named_submissions(position)
                    .into_iter()
                    .map(|i| data.event.submissions[i].code.as_str())
                    .collect();
                let _ = crate::json::append(out, &codes);
            }),
        }
        object.optional_string(
            "avatar_url",
            user.avatar.as_deref().filter(|url| !url.is_empty()),
        );
        match self.child("answers") {
            Some(child) => {
                let question = child.child("question");
                let options = child.child("options");
                object.value("answers", |out| {
                    write_array(out, self.speaker_answers(position), |out, a| {
                        child.write_answer(out, a, question.as_ref(), options.as_ref());
                    });
                });
            }
            // pretalx 2026's submissions and speakers views give their
            // nested speakers the questions, so their answers' ids.
            None if matches!(self.serving, Serving::Submissions | Serving::Speakers) => {
                object.array("answers", |elements| {
                    self.speaker_answers(position)
                        .for_each(|a| elements.integer(data.event.answers[a].id));
                });
            }
            None => object.raw("answers", "[]"),
        }
        if orga {
            object.string("email", &user.email);
            object.string("timezone", &user.timezone);
            object.string("locale", &user.locale);
            object.boolean("has_arrived", profile.has_arrived);
            // Most speakers have none: `[]` without a list and its writer
            // (0.4 % of an expanded page's instructions: callgrind).
            if profile.availabilities.is_empty() {
                object.raw("availabilities", "[]");
            } else {
                let availabilities = self.availabilities(&profile.availabilities);
                object.value("availabilities", |out| {
                    let _ = crate::json::append(out, &availabilities);
                });
            }
            object.optional_string("internal_notes", nullable(&profile.internal_notes));
        }
        object.close();
    }

    /// The positions of the speaker's answers the caller sees.
    fn speaker_answers(
        &self,
        position: crate::domain::catalog::ProfileIx,
    ) -> impl Iterator<Item = crate::domain::catalog::AnswerIx> + 'a {
        let access = self.access;
        access
            .data
            .answers_of_person
            .of(position)
            .iter()
            .copied()
            .filter(move |&a| access.sees_answer_at(a))
    }

    /// The speaker's submissions the caller sees with names, in pretalx
    /// 2026's order: by code (2025 ordered them by its primary key).
    fn named_submissions(
        &self,
        position: crate::domain::catalog::ProfileIx,
    ) -> Vec<crate::domain::catalog::SubmissionIx> {
        let access = self.access;
        let data: &'a crate::domain::catalog::EventData = access.data;
        let mut named: Vec<crate::domain::catalog::SubmissionIx> = data
            .profile_submissions
            .of(position)
            .iter()
            .copied()
            .filter(|&i| access.sees_submission_named_at(i))
            .collect();
        named.sort_by(|&a, &b| {
            data.event.submissions[a]
                .code
                .cmp(&data.event.submissions[b].code)
        });
        named
    }
}

/// The anonymised texts as pretalx 2026's `anonymised_data`: a JSON object
/// (2025 wrote it as a string), none when the submission is not anonymised.
pub(super) fn anonymised_data(
    texts: Option<&crate::model::Anonymised>,
) -> Option<Box<serde_json::value::RawValue>> {
    /// The object pretalx keeps, its keys in the order serde_json's map
    /// writes them (sorted): a struct, not a `Map` of `Value`s, which cost
    /// 5,000 instructions a submission (callgrind).
    #[derive(serde::Serialize)]
    struct Anonymised<'t> {
        #[serde(rename = "_anonymised")]
        anonymised: bool,
        #[serde(rename = "abstract", skip_serializing_if = "str::is_empty")]
        abstract_: &'t str,
        #[serde(skip_serializing_if = "str::is_empty")]
        description: &'t str,
        #[serde(skip_serializing_if = "str::is_empty")]
        title: &'t str,
    }
    let texts = texts?;
    if texts.title.is_empty() && texts.abstract_.is_empty() && texts.description.is_empty() {
        return None;
    }
    let fields = Anonymised {
        anonymised: true,
        abstract_: &texts.abstract_,
        description: &texts.description,
        title: &texts.title,
    };
    // Strings and a bool: serialising cannot fail.
    serde_json::value::to_raw_value(&fields).ok()
}
