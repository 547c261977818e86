//! Users: the demo logins, speakers (new and returning), reviewers, and
//! speaker profiles with their biographies.

use chrono::Duration;
use fastrand::Rng;

use super::super::helpers::{ascii_lower, token};
use super::super::plan::EventPlan;
use super::super::words::{
    words, COMPANIES, EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, USER_TIMEZONES,
};
use super::super::DemoLogin;
use super::{next_id, CodeKind, Generator};
use crate::model::{hash_token, SpeakerProfile, TokenHash, User};

/// Users with a role and a token. Indices into `Generator::users`.
pub(super) struct Staff {
    pub(super) admin: usize,
    pub(super) orga: usize,
    pub(super) reviewer: usize,
    pub(super) track_reviewer: usize,
    pub(super) blind_reviewer: usize,
    pub(super) speaker: usize,
}

impl Generator {
    fn push_user(&mut self, name: String, email: String, locale: &str, timezone: &str) -> usize {
        let code = self.unique_code(CodeKind::User);
        let avatar = self.chance(0.35).then(|| {
            format!(
                "https://demo.example/media/avatars/{}.png",
                code.to_lowercase()
            )
        });
        self.emails.insert(email.to_lowercase());
        self.users.push(User {
            code: code.into(),
            name,
            email,
            avatar,
            locale: locale.into(),
            timezone: timezone.into(),
            is_administrator: false,
            token_hashes: Vec::new(),
            id: Some(next_id(&mut self.ids.user_pk)),
        });
        self.users.len() - 1
    }

    /// A new person with a random name and a unique e-mail address.
    fn new_person(&mut self) -> usize {
        let first = self.pick(&FIRST_NAMES);
        let last = self.pick(&LAST_NAMES);
        let domain = self.pick(&EMAIL_DOMAINS);
        let local_part = format!("{}.{}", ascii_lower(first), ascii_lower(last));
        let mut email = format!("{local_part}@{domain}");
        // The user count is unique, so at most a few retries are ever needed.
        let mut suffix = self.users.len();
        while self.emails.contains(&email) {
            email = format!("{local_part}{suffix}@{domain}");
            suffix += 1;
        }
        let locale = self.weighted(&[("en", 60), ("de", 30), ("fr", 10)]);
        let timezone = self.pick(&USER_TIMEZONES);
        self.push_user(format!("{first} {last}"), email, locale, timezone)
    }

    /// The users with a demo login, each with a token from `token_rng`.
    pub(super) fn staff(&mut self, token_rng: &mut Rng) -> (Staff, Vec<DemoLogin>) {
        const ROLES: [(&str, &str); 6] = [
            ("admin@demo.example", "administrator"),
            ("orga@demo.example", "organiser"),
            ("reviewer@demo.example", "reviewer"),
            ("track-reviewer@demo.example", "track reviewer"),
            ("blind-reviewer@demo.example", "blind reviewer"),
            ("speaker@demo.example", "speaker"),
        ];
        let mut logins = Vec::with_capacity(ROLES.len());
        let mut indices = Vec::with_capacity(ROLES.len());
        for (email, role) in ROLES {
            let name = format!("{} {}", self.pick(&FIRST_NAMES), self.pick(&LAST_NAMES));
            let user = self.push_user(name, email.to_string(), "en", "Europe/Berlin");
            let token = token(token_rng);
            self.users[user].token_hashes.push(TokenHash {
                hash: hash_token(&token),
                api_version: None,
            });
            logins.push(DemoLogin {
                email: email.to_string(),
                role,
                token,
            });
            indices.push(user);
        }
        let staff = Staff {
            admin: indices[0],
            orga: indices[1],
            reviewer: indices[2],
            track_reviewer: indices[3],
            blind_reviewer: indices[4],
            speaker: indices[5],
        };
        self.users[staff.admin].is_administrator = true;
        (staff, logins)
    }

    /// Speakers of one event: about 0.8 per submission, a quarter of them
    /// returning from earlier events, plus a few profiles without submission
    /// (at the end). Returns the pool and how many of it get submissions.
    pub(super) fn speaker_pool(&mut self, index: usize, submissions: usize) -> (Vec<usize>, usize) {
        if submissions == 0 {
            return (Vec::new(), 0);
        }
        let active = (submissions * 4 / 5).max(1);
        let idle = active / 30;
        let returning = if index > 0 {
            (active / 4).min(self.speakers.len())
        } else {
            0
        };
        let previous = self.speakers.clone();
        let mut pool = self.sample(&previous, returning);
        while pool.len() < active + idle {
            let person = self.new_person();
            self.speakers.push(person);
            pool.push(person);
        }
        // Spread returning speakers over the pool; the idle tail stays random too.
        self.rng.shuffle(&mut pool);
        (pool, active)
    }

    pub(super) fn extra_reviewers(&mut self, submissions: usize) -> Vec<usize> {
        let count = (submissions / 40).clamp(3, 60);
        while self.reviewers.len() < count {
            let person = self.new_person();
            self.reviewers.push(person);
        }
        self.reviewers[..count].to_vec()
    }

    pub(super) fn profile(&mut self, plan: &EventPlan, user: usize) -> SpeakerProfile {
        let biography = if self.chance(0.08) {
            String::new()
        } else {
            self.biography(user)
        };
        let availabilities = if self.chance(0.2) {
            let day = self.pick(&plan.days);
            if self.rng.bool() {
                // A whole day, shown as `allDay`.
                vec![self.availability(plan.at(day, 0), plan.at(day + Duration::days(1), 0))]
            } else {
                let from = (9 + self.rng.i64(0..4)) * 60;
                vec![self.availability(plan.at(day, from), plan.at(day, from + 4 * 60))]
            }
        } else {
            Vec::new()
        };
        SpeakerProfile {
            user: self.code_of(user).into(),
            code: None,
            biography,
            availabilities,
            has_arrived: false,
            internal_notes: String::new(),
        }
    }

    fn biography(&mut self, user: usize) -> String {
        let words = words(&self.users[user].locale);
        let first = self.users[user]
            .name
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_string();
        let years = (2 + self.rng.u32(..19)).to_string();
        let mut bio = words
            .bio
            .replace("{f}", &first)
            .replace("{r}", self.pick(&words.roles))
            .replace("{c}", self.pick(&COMPANIES))
            .replace("{y}", &years)
            .replace("{t}", self.pick(&words.topics));
        if self.chance(0.7) {
            bio.push(' ');
            bio.push_str(&self.pick(&words.hobbies).replace("{f}", &first));
        }
        bio
    }
}
