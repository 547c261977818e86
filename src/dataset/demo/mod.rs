//! A deterministic synthetic demo dataset: realistic-looking conferences that
//! exercise every role, submission state, question kind and visibility rule of
//! the API (`shared/spec/behaviour.md`), at any size.
//!
//! Everything except the tokens is drawn from one generator seeded with
//! [`DemoOptions::seed`], in a fixed order, so the same options always give
//! the same dataset. Tokens come from a second generator seeded from the seed
//! alone, so the demo logins stay the same when only the size changes. What
//! pretalx's v1 API shows beyond that (schedule history, score categories,
//! ...) is filled last, by `v1`, from a third generator, so that adding it
//! changed nothing else.
//!
//! What the first event (`democonf`) shows, per role:
//! - the administrator and the organiser see everything; the organiser also
//!   speaks in the opening talk, so reviews of it are hidden from them;
//! - the reviewer reviews every track, wrote reviews (so sees the others'
//!   after review) and co-speaks in one rejected proposal;
//! - the track reviewer's team is limited to two tracks;
//! - the blind reviewer's only team forces hidden speaker names, so they get
//!   the anonymised view, and has written no review yet;
//! - the speaker has a public talk (a confirmed workshop with two slots) and
//!   is in a team without rights, so authenticates with the public role.
//!
//! Further events alternate between a private event without schedule (review
//! phase with assigned proposals only) and a public event whose released
//! schedule is hidden by the organisers.

use std::collections::HashSet;

use chrono::{Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use fastrand::Rng;

use crate::model::{
    derived_id, hash_token, Anonymised, Answer, Availability, Break, Dataset, Event, I18n,
    OtherReviews, ProposalVisibility, Question, QuestionOption, QuestionRequired, QuestionTarget,
    QuestionVariant, Resource, Review, ReviewPhase, Room, Schedule, Slot, SpeakerProfile,
    Submission, SubmissionState, SubmissionType, Tag, Team, Timestamp, TokenHash, Track, User,
};

#[derive(Debug, Clone)]
pub struct DemoOptions {
    pub events: usize,
    /// Submissions per event.
    pub submissions: usize,
    pub seed: u64,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            events: 2,
            submissions: 120,
            seed: 2026,
        }
    }
}

/// A login a new user can try: who it is, which role it has in the first event, and its clear token.
#[derive(Debug, Clone)]
pub struct DemoLogin {
    pub email: String,
    pub role: &'static str,
    pub token: String,
}

/// The dataset without confapi's extensions of the published format
/// (`shared/spec/dataset.md`), for tools that know only that format (its
/// reference validator and oracle): private resources are left out, and
/// what pretalx's v1 API shows is at its defaults (not written).
pub fn portable(dataset: &mut Dataset) {
    for event in &mut dataset.events {
        for submission in &mut event.submissions {
            submission.resources.retain(|r| r.is_public);
        }
        // The organiser and its teams' v1 fields (`teams/`).
        event.organiser = None;
        for team in &mut event.teams {
            *team = Team {
                name: std::mem::take(&mut team.name),
                members: std::mem::take(&mut team.members),
                can_change_submissions: team.can_change_submissions,
                is_reviewer: team.is_reviewer,
                force_hide_speaker_names: team.force_hide_speaker_names,
                limit_tracks: std::mem::take(&mut team.limit_tracks),
                ..Team::default()
            };
        }
    }
    v1::clear(dataset);
}

/// Deterministic: the same options always give the same dataset (use `fastrand::Rng::with_seed`).
pub fn generate(options: &DemoOptions) -> (Dataset, Vec<DemoLogin>) {
    let (mut dataset, logins) = generate_without_v1(options);
    v1::fill(&mut dataset, options.seed);
    (dataset, logins)
}

mod v1;

/// Everything but what `v1` adds.
fn generate_without_v1(options: &DemoOptions) -> (Dataset, Vec<DemoLogin>) {
    let mut generator = Generator::new(options.seed);
    // Mixed into the seed so tokens do not repeat the main sequence.
    let mut token_rng = Rng::with_seed(options.seed ^ 0x746f_6b65_6e73);
    let (staff, logins) = generator.staff(&mut token_rng);
    let events = (0..options.events)
        .map(|index| generator.event(index, options.submissions, &staff))
        .collect();
    let dataset = Dataset {
        users: generator.users,
        events,
    };
    (dataset, logins)
}

// ---------------------------------------------------------------------------
// Word lists
// ---------------------------------------------------------------------------

/// The organiser every demo event belongs to.
pub const DEMO_ORGANISER: &str = "democonf-org";

const FIRST_NAMES: [&str; 70] = [
    "Anna", "Ben", "Chiara", "David", "Elif", "Felix", "Grace", "Hannah", "Ibrahim", "Jana",
    "Jürgen", "Kai", "Lea", "Lukas", "Mara", "Mehmet", "Nina", "Noah", "Olga", "Paul", "Priya",
    "Quentin", "Rosa", "Samir", "Sofia", "Tobias", "Uma", "Valentin", "Wei", "Xenia", "Yusuf",
    "Zoë", "Amélie", "Björn", "Camille", "Dmitri", "Emma", "Fatima", "Gabriel", "Hiroshi", "Inès",
    "Jonas", "Karin", "Léon", "Maja", "Nils", "Oskar", "Pia", "Rahel", "Sven", "Thea", "Ulrike",
    "Vincent", "Wiebke", "Yara", "José", "Aisha", "Kwame", "Mei", "Arjun", "Lucía", "Mateo",
    "Freya", "Hugo", "Ingrid", "Jamal", "Keiko", "Linnea", "Marek", "Oona",
];

const LAST_NAMES: [&str; 70] = [
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Hoffmann",
    "Schäfer",
    "Koch",
    "Richter",
    "Klein",
    "Wolf",
    "Neumann",
    "Schwarz",
    "Zimmermann",
    "Braun",
    "Krüger",
    "Hofmann",
    "Hartmann",
    "Lange",
    "Werner",
    "Krause",
    "Lehmann",
    "Smith",
    "Johnson",
    "Brown",
    "Garcia",
    "Martin",
    "Dubois",
    "Lefèvre",
    "Moreau",
    "Rossi",
    "Bianchi",
    "Kowalski",
    "Nowak",
    "Novák",
    "Jensen",
    "Nielsen",
    "Andersson",
    "Lindqvist",
    "Virtanen",
    "O'Brien",
    "Murphy",
    "Okafor",
    "Mensah",
    "Tanaka",
    "Suzuki",
    "Kim",
    "Park",
    "Nguyen",
    "Chen",
    "Wang",
    "Singh",
    "Patel",
    "Kaya",
    "Yılmaz",
    "Haddad",
    "Costa",
    "Silva",
    "Fernández",
    "López",
    "Popescu",
    "Ivanova",
    "Horvat",
    "de Vries",
    "van Dijk",
    "Janssen",
    "Peeters",
];

/// Reserved `.example` domains only, so no demo address can reach anyone.
const EMAIL_DOMAINS: [&str; 6] = [
    "example.com",
    "example.org",
    "example.net",
    "mail.example",
    "posteo.example",
    "uni-demo.example",
];

const USER_TIMEZONES: [&str; 9] = [
    "Europe/Berlin",
    "Europe/Paris",
    "Europe/London",
    "Europe/Vienna",
    "America/New_York",
    "America/Los_Angeles",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "UTC",
];

/// Fictional companies, named in biographies and non-anonymised titles.
const COMPANIES: [&str; 12] = [
    "Contoso",
    "Fabrikam",
    "Northwind Traders",
    "Tailspin Toys",
    "Litware",
    "Adventure Works",
    "Proseware",
    "Woodgrove Bank",
    "Fourth Coffee",
    "Alpine Ski House",
    "Blue Yonder Airlines",
    "Coho Winery",
];

/// Everything needed to write talk texts in one language.
struct Words {
    code: &'static str,
    /// Lower-case where grammar allows; used inside sentences as they are.
    topics: &'static [&'static str],
    /// `{T}`: the topic (title-cased in English), `{N}`: a small number.
    title_patterns: &'static [&'static str],
    subjects: &'static [&'static str],
    /// `{t}`: the topic as written in `topics`.
    predicates: &'static [&'static str],
    /// Stand-ins for the topic in later sentences, so texts do not repeat it.
    references: &'static [&'static str],
    /// Sentence endings, punctuation included.
    tails: &'static [&'static str],
    fillers: &'static [&'static str],
    /// A suffix naming the company (`{c}`) and its anonymised replacement.
    company_title: (&'static str, &'static str),
    /// An abstract opening naming the speaker (`{n}`, `{c}`) and its anonymised replacement.
    company_intro: (&'static str, &'static str),
    /// Biography: `{f}` first name, `{r}` role, `{c}` company, `{y}` years, `{t}` topic.
    bio: &'static str,
    roles: &'static [&'static str],
    hobbies: &'static [&'static str],
}

const ENGLISH: Words = Words {
    code: "en",
    topics: &[
        "distributed tracing",
        "memory-safe systems programming",
        "accessible web design",
        "zero-downtime database migrations",
        "reproducible builds",
        "privacy-preserving analytics",
        "open source governance",
        "energy-efficient computing",
        "type-driven API design",
        "incident response",
        "home automation",
        "community moderation",
        "software supply chain security",
        "offline-first mobile apps",
        "event sourcing",
        "static site generators",
        "GPU scheduling",
        "e-mail deliverability",
        "infrastructure as code",
        "property-based testing",
        "WebAssembly in the browser",
        "self-hosted video conferencing",
        "open data portals",
        "mesh networking",
        "continuous fuzzing",
        "local-first software",
        "federated social networks",
        "observability on a budget",
        "machine learning in production",
        "passwordless authentication",
        "embedded Rust",
        "public interest technology",
    ],
    title_patterns: &[
        "{T}: Lessons from {N} Years in Production",
        "Beyond {T}",
        "A Gentle Introduction to {T}",
        "What We Learned Migrating to {T}",
        "{T} for Small Teams",
        "Why {T} Matters",
        "{T} Without Tears",
        "Demystifying {T}",
        "The Hidden Costs of {T}",
        "{T} in Practice",
        "From Zero to {T}",
        "{T}, Revisited",
        "{N} Things Nobody Tells You About {T}",
        "Hands-on {T}",
        "Scaling {T}",
    ],
    subjects: &[
        "This talk",
        "This session",
        "The speaker",
        "Our team",
        "This workshop",
        "The presentation",
    ],
    predicates: &[
        "explores {t}",
        "explains the trade-offs of {t}",
        "walks through a real-world deployment of {t}",
        "compares several approaches to {t}",
        "shows common pitfalls in {t}",
        "revisits {t}",
        "gives a practical introduction to {t}",
        "questions popular assumptions about {t}",
        "shares lessons learned from {t}",
    ],
    references: &["the topic", "these ideas", "the approach"],
    tails: &[
        ".",
        " in production.",
        " step by step.",
        " with live demos.",
        " at scale.",
        " without breaking existing users.",
        " on a shoestring budget.",
    ],
    fillers: &[
        "No prior knowledge is required.",
        "Bring a laptop if you want to follow along.",
        "All examples are available under an open licence.",
        "The last ten minutes are reserved for questions.",
        "Expect code, diagrams and a few war stories.",
        "We will look at both the technical and the social side.",
        "The material builds on a series of blog posts.",
        "Everything shown runs on ordinary hardware.",
    ],
    company_title: (" at {c}", " at a Mid-Sized Company"),
    company_intro: (
        "{n} from {c} shares what the team learned along the way.",
        "The speaker shares what their team learned along the way.",
    ),
    bio: "{f} is {r} at {c}. For the last {y} years, {f} has worked on {t}.",
    roles: &[
        "a software engineer",
        "a site reliability engineer",
        "a researcher",
        "a product designer",
        "a freelance consultant",
        "an open source maintainer",
        "a data scientist",
        "a security analyst",
        "an engineering manager",
        "a developer advocate",
    ],
    hobbies: &[
        "Outside of work, {f} builds mechanical keyboards.",
        "Outside of work, {f} enjoys long-distance cycling.",
        "{f} also organises a local user group.",
        "{f} bakes sourdough bread and mentors newcomers to open source.",
        "{f} plays the cello in an amateur orchestra.",
        "{f} has spoken at several community conferences.",
    ],
};

/// German topics avoid articles and dative forms, so they fit every pattern.
const GERMAN: Words = Words {
    code: "de",
    topics: &[
        "verteilte Systeme",
        "barrierefreie Webentwicklung",
        "Datenbankmigrationen ohne Ausfallzeit",
        "reproduzierbare Builds",
        "datensparsame Webanalyse",
        "Open-Source-Communitys",
        "Hausautomatisierung",
        "Lieferkettensicherheit",
        "Infrastruktur als Code",
        "selbst gehostete Videokonferenzen",
        "offene Verwaltungsdaten",
        "Mesh-Netzwerke",
        "kontinuierliches Fuzzing",
        "maschinelles Lernen im Betrieb",
        "passwortlose Anmeldung",
        "eingebettetes Rust",
        "föderierte soziale Netzwerke",
    ],
    title_patterns: &[
        "{T} in der Praxis",
        "Einführung in {T}",
        "{T}: Erfahrungen aus {N} Jahren",
        "{T} – ein Praxisbericht",
        "Was wir über {T} gelernt haben",
        "{T} für kleine Teams",
        "{T} ohne Kopfschmerzen",
        "{T} richtig gemacht",
    ],
    subjects: &[
        "Dieser Vortrag",
        "Der Beitrag",
        "Dieser Workshop",
        "Unser Team",
        "Die Session",
    ],
    predicates: &[
        "gibt einen Überblick über {t}",
        "zeigt typische Fallstricke rund um {t}",
        "stellt {t} anhand echter Beispiele vor",
        "vergleicht verschiedene Ansätze für {t}",
        "beleuchtet {t} aus Sicht der Nutzenden",
        "diskutiert offene Fragen rund um {t}",
    ],
    references: &["das Thema"],
    tails: &[
        ".",
        " und zeigt viele Live-Demos.",
        " – mit vielen Beispielen aus der Praxis.",
        " und lädt zur Diskussion ein.",
        " – Schritt für Schritt.",
    ],
    fillers: &[
        "Vorkenntnisse sind nicht nötig.",
        "Wer mitmachen möchte, bringt einen Laptop mit.",
        "Alle Beispiele stehen unter einer freien Lizenz.",
        "Die letzten zehn Minuten sind für Fragen reserviert.",
        "Es gibt Code, Diagramme und ein paar Anekdoten.",
    ],
    company_title: (" bei {c}", " bei einem mittelständischen Unternehmen"),
    company_intro: (
        "{n} von {c} berichtet aus der Praxis.",
        "Die vortragende Person berichtet aus der Praxis.",
    ),
    bio: "{f} arbeitet {r} bei {c} und beschäftigt sich seit {y} Jahren mit dem Thema „{t}“.",
    roles: &[
        "in der Softwareentwicklung",
        "im Betrieb",
        "in der Forschung",
        "im Produktdesign",
        "in der IT-Sicherheit",
        "im Datenteam",
    ],
    hobbies: &[
        "In der Freizeit baut {f} mechanische Tastaturen.",
        "In der Freizeit fährt {f} gerne lange Radtouren.",
        "{f} organisiert außerdem eine lokale Nutzergruppe.",
        "{f} backt leidenschaftlich gern Sauerteigbrot.",
    ],
};

/// French topics all take `la` or `l'`, so `de {t}` and `à {t}` stay correct.
const FRENCH: Words = Words {
    code: "fr",
    topics: &[
        "la traçabilité distribuée",
        "l'accessibilité du web",
        "la sécurité de la chaîne logicielle",
        "la domotique",
        "l'analyse respectueuse de la vie privée",
        "la gouvernance open source",
        "la sobriété numérique",
        "l'authentification sans mot de passe",
        "la conception d'API typées",
        "la migration de bases de données sans interruption",
        "l'observabilité à petit budget",
        "la modération communautaire",
        "l'apprentissage automatique en production",
        "la réponse aux incidents",
    ],
    title_patterns: &[
        "{T} : retour d'expérience",
        "Introduction à {T}",
        "{T} en pratique",
        "Tout savoir sur {T}",
        "{T} pour les petites équipes",
        "Repenser {T}",
        "{T}, {N} ans après",
    ],
    subjects: &[
        "Cette présentation",
        "Cet atelier",
        "Notre équipe",
        "Cette session",
    ],
    predicates: &[
        "explore {t}",
        "présente les enjeux de {t}",
        "compare plusieurs approches de {t}",
        "revient sur {t}",
        "propose une introduction pratique à {t}",
        "montre les pièges courants de {t}",
    ],
    references: &["ce sujet"],
    tails: &[
        ".",
        " avec des démonstrations en direct.",
        " à partir d'exemples concrets.",
        " pas à pas.",
    ],
    fillers: &[
        "Aucun prérequis n'est nécessaire.",
        "Apportez un ordinateur portable pour suivre.",
        "Tous les exemples sont sous licence libre.",
        "Les dix dernières minutes sont réservées aux questions.",
    ],
    company_title: (" chez {c}", " dans une entreprise de taille moyenne"),
    company_intro: (
        "{n} de {c} partage son retour d'expérience.",
        "La personne intervenante partage son retour d'expérience.",
    ),
    bio: "{f} travaille {r} chez {c} et s'intéresse depuis {y} ans à {t}.",
    roles: &[
        "dans le développement logiciel",
        "dans la recherche",
        "dans la sécurité informatique",
        "dans l'exploitation",
        "dans le design produit",
    ],
    hobbies: &[
        "En dehors du travail, {f} fait du vélo.",
        "{f} anime aussi un groupe d'utilisateurs local.",
        "{f} joue du violoncelle dans un orchestre amateur.",
    ],
};

fn words(locale: &str) -> &'static Words {
    match locale {
        "de" => &GERMAN,
        "fr" => &FRENCH,
        _ => &ENGLISH,
    }
}

const LEARNING_OUTCOMES: [&str; 8] = [
    "how to set up a minimal working example",
    "which trade-offs matter in practice",
    "how to measure the impact of their changes",
    "where to find help in the community",
    "how to avoid the most common mistakes",
    "how to convince their team to give it a try",
    "how to read the relevant specifications",
    "which tools are worth learning first",
];

const SPEAKER_NOTES: [&str; 7] = [
    "I can also give this talk in German.",
    "I would prefer a slot on the first day.",
    "Happy to shorten this to a lightning talk if needed.",
    "I need an HDMI adapter for my laptop.",
    "Ich kann den Vortrag auch auf Englisch halten.",
    "This is an extended version of a talk I gave at a local meetup.",
    "My co-speaker may join remotely.",
];

const INTERNAL_NOTES: [&str; 6] = [
    "Strong candidate for a keynote.",
    "Ask about travel costs.",
    "Speaker was great last year.",
    "Check whether the demo needs internet access.",
    "Possible overlap with another submission on the same topic.",
    "Sponsor talk – handle with care.",
];

const REVIEW_TEXTS: [&str; 10] = [
    "Well structured and clearly relevant for our audience.",
    "The abstract promises a lot; I am not sure the time is enough.",
    "Strong speaker, saw them last year.",
    "Too close to a vendor pitch for my taste.",
    "Would work better as a workshop.",
    "Great topic, but the description is a bit vague.",
    "Exactly what our beginners need.",
    "Very similar to last year's talk on the same subject.",
    "Gutes Thema, aber die Beschreibung ist noch zu allgemein.",
    "Klare Empfehlung.",
];

/// Submission types with their German name and default duration.
const SUBMISSION_TYPES: [(&str, &str, i64); 3] = [
    ("Talk", "Vortrag", 30),
    ("Workshop", "Workshop", 90),
    ("Lightning talk", "Kurzvortrag", 10),
];
const TALK: usize = 0;
const WORKSHOP: usize = 1;
/// Share of talks, workshops and lightning talks.
const TYPE_WEIGHTS: [(usize, u32); 3] = [(0, 65), (1, 15), (2, 20)];
/// Durations chosen instead of the type's default, per type.
const OTHER_DURATIONS: [&[i64]; 3] = [&[20, 40, 45], &[60, 120, 180], &[5, 15]];

/// Track names (German `None`: the organisers only named it in English).
const TRACKS: [(&str, Option<&str>, &str); 8] = [
    ("Security", Some("Sicherheit"), "#c0392b"),
    ("Web & Frontend", None, "#2980b9"),
    ("Data Science", Some("Datenwissenschaft"), "#8e44ad"),
    ("Infrastructure", Some("Infrastruktur"), "#27ae60"),
    ("Community", Some("Gemeinschaft"), "#f39c12"),
    ("Open Hardware", Some("Offene Hardware"), "#16a085"),
    (
        "Programming Languages",
        Some("Programmiersprachen"),
        "#2c3e50",
    ),
    ("Ethics & Society", Some("Ethik & Gesellschaft"), "#d35400"),
];

/// Rooms: English and German name, capacity.
const ROOMS: [(&str, &str, i64); 6] = [
    ("Main Hall", "Großer Saal", 800),
    ("Room A", "Raum A", 250),
    ("Room B", "Raum B", 180),
    ("Lab 1", "Labor 1", 40),
    ("Lab 2", "Labor 2", 40),
    ("Community Stage", "Community-Bühne", 120),
];

const ROOM_DESCRIPTIONS: [(&str, &str); 4] = [
    (
        "Ground floor, step-free access.",
        "Erdgeschoss, barrierefrei.",
    ),
    (
        "First floor, take the lift next to the registration desk.",
        "Erster Stock, Aufzug neben der Anmeldung.",
    ),
    (
        "Seminar room with tables and power outlets.",
        "Seminarraum mit Tischen und Steckdosen.",
    ),
    (
        "Open area next to the café.",
        "Offene Fläche neben dem Café.",
    ),
];

/// Tags: name, description, colour, public. The dotted one is always used.
const DOTTED_TAG: (&str, &str, &str, bool) =
    ("v2.0", "Follow-up of last year's talk", "#7f8c8d", true);
const TAGS: [(&str, &str, &str, bool); 8] = [
    ("keynote-candidate", "Could be a keynote", "#e74c3c", false),
    ("needs-av", "Needs special A/V setup", "#3498db", false),
    (
        "beginner-friendly",
        "Suitable for beginners",
        "#2ecc71",
        true,
    ),
    ("sponsor", "Sponsored session", "#f1c40f", false),
    (
        "hands-on",
        "Participants work on their own laptops",
        "#9b59b6",
        true,
    ),
    (
        "late-submission",
        "Arrived after the deadline",
        "#95a5a6",
        false,
    ),
    (
        "community-pick",
        "Chosen by community vote",
        "#1abc9c",
        true,
    ),
    (
        "recording-ok",
        "Speaker agreed to recording",
        "#34495e",
        false,
    ),
];

// ---------------------------------------------------------------------------
// Questions
// ---------------------------------------------------------------------------

/// A deadline or freeze date, far from any realistic "now" so that the
/// computed `required`/`read_only` flags never change while the demo is used.
#[derive(Clone, Copy)]
enum When {
    Never,
    LongAgo,
    FarFuture,
}

impl When {
    fn timestamp(self) -> Option<Timestamp> {
        match self {
            When::Never => None,
            When::LongAgo => Some(utc(2020, 1, 15, 12)),
            When::FarFuture => Some(utc(2035, 12, 31, 23)),
        }
    }
}

/// Which submissions a question applies to.
#[derive(Clone, Copy, PartialEq)]
enum Scope {
    All,
    FirstTrack,
    Workshops,
}

/// How to make up an answer.
#[derive(Clone, Copy)]
enum Sample {
    LearningOutcomes,
    Choice,
    Choices,
    YesNo,
    VideoUrl,
    Homepage,
    SlidesFile,
    Participants,
    EventDay,
    Arrival,
    Repository,
    ShirtSize,
    Fediverse,
}

struct QuestionTemplate {
    variant: &'static str,
    target: &'static str,
    en: &'static str,
    de: Option<&'static str>,
    help: &'static str,
    required: &'static str,
    deadline: When,
    freeze_after: When,
    options: &'static [(&'static str, &'static str)],
    default_answer: Option<&'static str>,
    personal_data: bool,
    min_length: Option<i64>,
    max_length: Option<i64>,
    public: bool,
    visible_to_reviewers: bool,
    active: bool,
    scope: Scope,
    /// Share of owners that answered.
    answer_rate: f64,
    sample: Sample,
}

const fn question(
    variant: &'static str,
    target: &'static str,
    en: &'static str,
    sample: Sample,
    answer_rate: f64,
) -> QuestionTemplate {
    QuestionTemplate {
        variant,
        target,
        en,
        de: None,
        help: "",
        required: "optional",
        deadline: When::Never,
        freeze_after: When::Never,
        options: &[],
        default_answer: None,
        personal_data: true,
        min_length: None,
        max_length: None,
        public: false,
        visible_to_reviewers: true,
        active: true,
        scope: Scope::All,
        answer_rate,
        sample,
    }
}

/// Together: every variant, every target, every `question_required`, public
/// and internal, one hidden from reviewers, one inactive, one per track and
/// one per submission type.
const QUESTIONS: [QuestionTemplate; 17] = [
    QuestionTemplate {
        de: Some("Was lernen die Teilnehmenden?"),
        help: "A few sentences; shown on the public talk page.",
        required: "required",
        personal_data: false,
        min_length: Some(20),
        max_length: Some(2000),
        public: true,
        ..question(
            "text",
            "submission",
            "What will attendees learn?",
            Sample::LearningOutcomes,
            0.8,
        )
    },
    QuestionTemplate {
        de: Some("Für welches Publikum?"),
        required: "required",
        options: &[
            ("Beginner", "Einsteiger"),
            ("Intermediate", "Fortgeschrittene"),
            ("Advanced", "Profis"),
        ],
        personal_data: false,
        public: true,
        ..question(
            "choices",
            "submission",
            "Audience level",
            Sample::Choice,
            0.9,
        )
    },
    QuestionTemplate {
        de: Some("Technische Anforderungen"),
        options: &[
            ("Projector", "Beamer"),
            ("Microphone", "Mikrofon"),
            ("Internet", "Internet"),
            ("Whiteboard", "Whiteboard"),
            ("Power outlets", "Steckdosen"),
        ],
        personal_data: false,
        ..question(
            "multiple_choice",
            "submission",
            "Technical requirements",
            Sample::Choices,
            0.45,
        )
    },
    QuestionTemplate {
        de: Some("Hast du diesen Vortrag schon einmal gehalten?"),
        visible_to_reviewers: false,
        ..question(
            "boolean",
            "submission",
            "Have you given this talk before?",
            Sample::YesNo,
            0.35,
        )
    },
    QuestionTemplate {
        help: "Helps us judge the speaking experience.",
        ..question(
            "url",
            "submission",
            "Link to a video of a previous talk",
            Sample::VideoUrl,
            0.15,
        )
    },
    QuestionTemplate {
        de: Some("Foliensatz (Entwurf, PDF)"),
        help: "Required once the deadline has passed.",
        required: "after_deadline",
        deadline: When::FarFuture,
        freeze_after: When::FarFuture,
        ..question(
            "file",
            "submission",
            "Draft slides (PDF)",
            Sample::SlidesFile,
            0.1,
        )
    },
    QuestionTemplate {
        de: Some("Maximale Anzahl Teilnehmender"),
        required: "required",
        personal_data: false,
        scope: Scope::Workshops,
        ..question(
            "number",
            "submission",
            "Maximum number of participants",
            Sample::Participants,
            0.8,
        )
    },
    QuestionTemplate {
        de: Some("Bevorzugter Tag"),
        personal_data: false,
        ..question(
            "date",
            "submission",
            "Preferred day for your session",
            Sample::EventDay,
            0.2,
        )
    },
    QuestionTemplate {
        help: "Asked only in the track whose sessions need preparation.",
        scope: Scope::FirstTrack,
        max_length: Some(200),
        ..question(
            "string",
            "submission",
            "Which repository should attendees clone beforehand?",
            Sample::Repository,
            0.6,
        )
    },
    QuestionTemplate {
        active: false,
        ..question(
            "string",
            "submission",
            "T-shirt size (old form)",
            Sample::ShirtSize,
            0.08,
        )
    },
    QuestionTemplate {
        de: Some("Fediverse-Adresse"),
        max_length: Some(100),
        public: true,
        ..question(
            "string",
            "speaker",
            "Fediverse handle",
            Sample::Fediverse,
            0.5,
        )
    },
    QuestionTemplate {
        de: Some("Webseite"),
        public: true,
        ..question("url", "speaker", "Homepage", Sample::Homepage, 0.45)
    },
    QuestionTemplate {
        de: Some("Wann kommst du am Veranstaltungsort an?"),
        help: "Closed: the travel planning is done.",
        required: "after_deadline",
        deadline: When::LongAgo,
        freeze_after: When::LongAgo,
        ..question(
            "datetime",
            "speaker",
            "When do you arrive at the venue?",
            Sample::Arrival,
            0.25,
        )
    },
    QuestionTemplate {
        de: Some("T-Shirt-Größe"),
        required: "required",
        options: &[("S", "S"), ("M", "M"), ("L", "L"), ("XL", "XL")],
        default_answer: Some("M"),
        ..question("choices", "speaker", "T-shirt size", Sample::Choice, 0.5)
    },
    QuestionTemplate {
        de: Some("Brauchst du Reisekostenunterstützung?"),
        ..question(
            "boolean",
            "speaker",
            "Do you need travel support?",
            Sample::YesNo,
            0.2,
        )
    },
    QuestionTemplate {
        de: Some("Würdest du diese Session selbst besuchen?"),
        personal_data: false,
        ..question(
            "boolean",
            "reviewer",
            "Would you attend this session yourself?",
            Sample::YesNo,
            0.5,
        )
    },
    QuestionTemplate {
        options: &[
            ("Talk", "Vortrag"),
            ("Workshop", "Workshop"),
            ("Lightning talk", "Kurzvortrag"),
            ("Panel", "Podium"),
        ],
        personal_data: false,
        ..question(
            "choices",
            "reviewer",
            "Best format for this proposal",
            Sample::Choice,
            0.3,
        )
    },
];

// ---------------------------------------------------------------------------
// Submissions, reviews, schedule
// ---------------------------------------------------------------------------

/// The first submissions of every event take these states (so each state
/// occurs); see [`Generator::event`] for the special roles of some of them.
const FORCED_STATES: [&str; 7] = [
    "confirmed", // 0: the opening talk in the first event
    "submitted", // 1: anonymised
    "accepted",  // 2: an invisible slot
    "rejected",  // 3: the reviewer co-speaks in the first event
    "confirmed", // 4: a workshop with two slots, the demo speaker's
    "canceled",  // 5: keeps its slot
    "withdrawn", // 6: keeps its slot
];
const ANONYMISED: usize = 1;
const INVISIBLE: usize = 2;
const CO_SPOKEN: usize = 3;
const TWO_SLOTS: usize = 4;

/// After the review, before the conference.
const SCHEDULED_STATES: [(&str, u32); 6] = [
    ("submitted", 8),
    ("accepted", 7),
    ("rejected", 38),
    ("confirmed", 33),
    ("canceled", 5),
    ("withdrawn", 9),
];
/// Still in review.
const REVIEWING_STATES: [(&str, u32); 6] = [
    ("submitted", 50),
    ("accepted", 12),
    ("rejected", 18),
    ("confirmed", 8),
    ("canceled", 2),
    ("withdrawn", 10),
];

const SPEAKER_COUNTS: [(usize, u32); 3] = [(1, 85), (2, 12), (3, 3)];
const REVIEW_COUNTS: [(usize, u32); 5] = [(0, 15), (1, 20), (2, 30), (3, 25), (4, 10)];
const SCORES: [(u32, u32); 6] = [(0, 3), (1, 8), (2, 20), (3, 30), (4, 27), (5, 12)];

/// Pretalx-style code alphabet: no 0/O, 1/I or similar look-alikes.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ3789";
const CODE_LENGTH: usize = 6;

const DAY_START_MINUTES: i64 = 9 * 60;
const DAY_LENGTH_MINUTES: i64 = 10 * 60;
const BREAK_MINUTES: i64 = 15;

// ---------------------------------------------------------------------------
// Event plans
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Debug)]
enum EventKind {
    /// Public, schedule released and shown, review phase with all proposals.
    Showcase,
    /// Not public, no schedule, reviewers see assigned proposals only.
    Private,
    /// Public, schedule released but hidden by the organisers, no review phase.
    HiddenSchedule,
}

struct EventPlan {
    kind: EventKind,
    slug: String,
    name: I18n,
    locale: &'static str,
    tz: Tz,
    days: Vec<NaiveDate>,
}

impl EventPlan {
    fn new(index: usize) -> Self {
        let kind = match index % 3 {
            0 => EventKind::Showcase,
            1 => EventKind::Private,
            _ => EventKind::HiddenSchedule,
        };
        // Capped so absurd event counts still give valid dates.
        let year = 2027 + index.min(7000) as i32;
        let (tz, month, day, length, en, de, locale) = match kind {
            EventKind::Showcase => (
                chrono_tz::Europe::Berlin,
                9,
                15,
                3,
                "DemoConf",
                "DemoKonferenz",
                "en",
            ),
            EventKind::Private => (
                chrono_tz::America::New_York,
                3,
                8,
                2,
                "DemoConf Workshop Days",
                "DemoConf Workshoptage",
                "de",
            ),
            EventKind::HiddenSchedule => (
                chrono_tz::Asia::Kolkata,
                11,
                20,
                3,
                "DemoConf Asia",
                "DemoConf Asien",
                "en",
            ),
        };
        let first =
            NaiveDate::from_ymd_opt(year, month, day).expect("a fixed, valid conference date");
        let slug = if index == 0 {
            "democonf".to_string()
        } else {
            format!("democonf{}", index + 1)
        };
        EventPlan {
            kind,
            slug,
            name: I18n(
                vec![
                    ("en".into(), format!("{en} {year}")),
                    ("de".into(), format!("{de} {year}")),
                ],
                false,
            ),
            locale,
            tz,
            days: (0..length).map(|d| first + Duration::days(d)).collect(),
        }
    }

    fn first_day(&self) -> NaiveDate {
        self.days[0]
    }

    fn has_schedule(&self) -> bool {
        self.kind != EventKind::Private
    }

    /// Midnight-relative minutes on `date`, in the event's time zone.
    fn at(&self, date: NaiveDate, minutes: i64) -> Timestamp {
        local_time(&self.tz, date, minutes)
    }

    /// Call for papers: submissions arrive 200 to 90 days before the event.
    fn cfp_window(&self) -> (Timestamp, Timestamp) {
        let first = self.at(self.first_day(), 0);
        (first - Duration::days(200), first - Duration::days(90))
    }

    fn review_window(&self) -> (Timestamp, Timestamp) {
        let first = self.at(self.first_day(), 0);
        (first - Duration::days(85), first - Duration::days(45))
    }
}

// ---------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------

/// Users with a role and a token. Indices into `Generator::users`.
struct Staff {
    admin: usize,
    orga: usize,
    reviewer: usize,
    track_reviewer: usize,
    blind_reviewer: usize,
    speaker: usize,
}

/// Someone who writes reviews in an event; `tracks: None` covers every track.
struct Seat {
    code: String,
    tracks: Option<Vec<i64>>,
}

impl Seat {
    fn covers(&self, track: Option<i64>) -> bool {
        match (&self.tracks, track) {
            (None, _) => true,
            (Some(tracks), Some(track)) => tracks.contains(&track),
            (Some(_), None) => false,
        }
    }
}

#[derive(Default)]
struct Ids {
    submission_type: i64,
    track: i64,
    room: i64,
    availability: i64,
    tag: i64,
    question: i64,
    option: i64,
    answer: i64,
    review: i64,
    /// Upstream primary keys (pretalx's), for the schedule exports.
    user_pk: i64,
    submission_pk: i64,
    /// Slots and breaks: one id space.
    slot_pk: i64,
}

/// A deterministic UUID for an upstream slot id (pretalx `TalkSlot.uuid`),
/// derived without drawing from the generator, so that adding it changed
/// no other value of a seed's dataset.
fn slot_guid(slot_pk: i64) -> String {
    let bits = xxhash_rust::xxh3::xxh3_128(format!("confapi-demo-slot-{slot_pk}").as_bytes());
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

/// Hands out the next id of a kind: ids are one global sequence per kind.
fn next_id(counter: &mut i64) -> i64 {
    *counter += 1;
    *counter
}

struct Generator {
    rng: Rng,
    ids: Ids,
    users: Vec<User>,
    user_codes: HashSet<String>,
    submission_codes: HashSet<String>,
    emails: HashSet<String>,
    /// Every speaker created so far (user indices), for returning speakers.
    speakers: Vec<usize>,
    /// Reviewers without a demo login, shared by all events.
    reviewers: Vec<usize>,
}

impl Generator {
    fn new(seed: u64) -> Self {
        Generator {
            rng: Rng::with_seed(seed),
            ids: Ids::default(),
            users: Vec::new(),
            user_codes: HashSet::new(),
            submission_codes: HashSet::new(),
            emails: HashSet::new(),
            speakers: Vec::new(),
            reviewers: Vec::new(),
        }
    }

    fn chance(&mut self, probability: f64) -> bool {
        self.rng.f64() < probability
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.usize(..items.len())]
    }

    fn weighted<T: Copy>(&mut self, table: &[(T, u32)]) -> T {
        let total: u32 = table.iter().map(|(_, weight)| weight).sum();
        let mut ticket = self.rng.u32(..total);
        for &(value, weight) in table {
            if ticket < weight {
                return value;
            }
            ticket -= weight;
        }
        table[table.len() - 1].0
    }

    /// `count` distinct items, in random order (a partial Fisher–Yates shuffle).
    fn sample<T: Copy>(&mut self, items: &[T], count: usize) -> Vec<T> {
        let mut items = items.to_vec();
        let count = count.min(items.len());
        for i in 0..count {
            let j = self.rng.usize(i..items.len());
            items.swap(i, j);
        }
        items.truncate(count);
        items
    }

    fn instant_between(&mut self, from: Timestamp, to: Timestamp) -> Timestamp {
        let span = (to - from).num_microseconds().unwrap_or(0).max(1);
        from + Duration::microseconds(self.rng.i64(0..span))
    }

    fn code(&mut self) -> String {
        (0..CODE_LENGTH)
            .map(|_| char::from(CODE_ALPHABET[self.rng.usize(..CODE_ALPHABET.len())]))
            .collect()
    }

    fn unique_code(&mut self, kind: CodeKind) -> String {
        loop {
            let code = self.code();
            let taken = match kind {
                CodeKind::User => &mut self.user_codes,
                CodeKind::Submission => &mut self.submission_codes,
            };
            if taken.insert(code.clone()) {
                return code;
            }
        }
    }

    fn code_of(&self, user: usize) -> String {
        self.users[user].code.to_string()
    }

    // ---- users ----------------------------------------------------------

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
    fn staff(&mut self, token_rng: &mut Rng) -> (Staff, Vec<DemoLogin>) {
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
    fn speaker_pool(&mut self, index: usize, submissions: usize) -> (Vec<usize>, usize) {
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

    fn extra_reviewers(&mut self, submissions: usize) -> Vec<usize> {
        let count = (submissions / 40).clamp(3, 60);
        while self.reviewers.len() < count {
            let person = self.new_person();
            self.reviewers.push(person);
        }
        self.reviewers[..count].to_vec()
    }

    // ---- event-level records ----------------------------------------------

    fn submission_types(&mut self) -> Vec<SubmissionType> {
        SUBMISSION_TYPES
            .iter()
            .map(|&(en, de, default_duration)| SubmissionType {
                id: next_id(&mut self.ids.submission_type),
                name: i18n(en, Some(de)),
                default_duration,
                deadline: None,
                requires_access_code: false,
            })
            .collect()
    }

    fn tracks(&mut self) -> Vec<Track> {
        let count = 4 + self.rng.usize(..=2);
        let chosen = self.sample(&TRACKS, count);
        chosen
            .into_iter()
            .enumerate()
            .map(|(position, (en, de, color))| Track {
                id: next_id(&mut self.ids.track),
                name: i18n(en, de),
                color: color.to_string(),
                description: I18n::en(&format!("Talks about {}.", en.to_lowercase())),
                position: Some(position as i64),
                requires_access_code: false,
            })
            .collect()
    }

    fn rooms(&mut self, plan: &EventPlan) -> Vec<Room> {
        let count = 3 + self.rng.usize(..=3);
        (0..count)
            .map(|position| {
                let (en, de, capacity) = ROOMS[position];
                let last = position + 1 == count;
                let (description_en, description_de) =
                    ROOM_DESCRIPTIONS[position % ROOM_DESCRIPTIONS.len()];
                let availabilities = if last {
                    // Whole days, midnight to midnight: shown as `allDay`.
                    let end = *plan.days.last().expect("events have days") + Duration::days(1);
                    vec![self.availability(plan.at(plan.first_day(), 0), plan.at(end, 0))]
                } else {
                    plan.days
                        .iter()
                        .map(|&day| {
                            self.availability(plan.at(day, 8 * 60 + 30), plan.at(day, 19 * 60 + 30))
                        })
                        .collect()
                };
                Room {
                    id: next_id(&mut self.ids.room),
                    // The last room was added by hand and has neither guid nor position.
                    guid: (!last).then(|| uuid(&mut self.rng)),
                    uuid: None,
                    name: i18n(en, Some(de)),
                    description: i18n(description_en, Some(description_de)),
                    speaker_info: if position == 0 {
                        i18n(
                            "The speaker desk is left of the stage.",
                            Some("Das Redepult steht links von der Bühne."),
                        )
                    } else {
                        I18n::default()
                    },
                    capacity: Some(capacity),
                    position: (!last).then_some(position as i64 + 1),
                    availabilities,
                }
            })
            .collect()
    }

    fn availability(&mut self, start: Timestamp, end: Timestamp) -> Availability {
        Availability {
            id: next_id(&mut self.ids.availability),
            start,
            end,
        }
    }

    fn tags(&mut self) -> Vec<Tag> {
        let count = 4 + self.rng.usize(..=3);
        let mut chosen = self.sample(&TAGS, count);
        chosen.push(DOTTED_TAG);
        chosen
            .into_iter()
            .map(|(tag, description, color, is_public)| Tag {
                id: next_id(&mut self.ids.tag),
                tag: tag.to_string(),
                description: I18n::en(description),
                color: color.to_string(),
                is_public,
            })
            .collect()
    }

    fn questions(&mut self, tracks: &[Track], types: &[SubmissionType]) -> Vec<Question> {
        QUESTIONS
            .iter()
            .enumerate()
            .map(|(position, template)| Question {
                id: next_id(&mut self.ids.question),
                variant: QuestionVariant::from_name(template.variant).expect("a known variant"),
                target: QuestionTarget::from_name(template.target).expect("a known target"),
                question: i18n(template.en, template.de),
                help_text: I18n::en(template.help),
                question_required: QuestionRequired::from_name(template.required)
                    .expect("a known requirement"),
                deadline: template.deadline.timestamp(),
                freeze_after: template.freeze_after.timestamp(),
                options: template
                    .options
                    .iter()
                    .map(|&(en, de)| QuestionOption {
                        id: next_id(&mut self.ids.option),
                        answer: if en == de {
                            I18n::en(en)
                        } else {
                            i18n(en, Some(de))
                        },
                        position: None,
                    })
                    .collect(),
                default_answer: template.default_answer.map(str::to_string),
                contains_personal_data: template.personal_data,
                min_length: template.min_length,
                max_length: template.max_length,
                min_number: None,
                max_number: None,
                min_date: None,
                max_date: None,
                min_datetime: None,
                max_datetime: None,
                icon: None,
                is_public: template.public,
                is_visible_to_reviewers: template.visible_to_reviewers,
                active: template.active,
                position: position as i64 + 1,
                tracks: match template.scope {
                    Scope::FirstTrack => vec![tracks[0].id],
                    _ => Vec::new(),
                },
                submission_types: match template.scope {
                    Scope::Workshops => vec![types[WORKSHOP].id],
                    _ => Vec::new(),
                },
            })
            .collect()
    }

    // ---- one event --------------------------------------------------------

    fn event(&mut self, index: usize, count: usize, staff: &Staff) -> Event {
        let plan = EventPlan::new(index);
        let submission_types = self.submission_types();
        let tracks = self.tracks();
        let rooms = self.rooms(&plan);
        let tags = self.tags();
        let questions = self.questions(&tracks, &submission_types);
        let extra_reviewers = self.extra_reviewers(count);
        let (pool, active) = self.speaker_pool(index, count);
        // The first event is where the demo logins have their special parts.
        let staffed = index == 0;

        let mut submissions = Vec::with_capacity(count);
        for i in 0..count {
            let state = match FORCED_STATES.get(i) {
                Some(&state) => state,
                None if plan.has_schedule() => self.weighted(&SCHEDULED_STATES),
                None => self.weighted(&REVIEWING_STATES),
            };
            let speakers = match i {
                0 if staffed => vec![staff.orga],
                TWO_SLOTS if staffed => vec![staff.speaker],
                CO_SPOKEN if staffed => {
                    let mut speakers = self.submission_speakers(&pool[..active], i);
                    speakers.truncate(1);
                    speakers.push(staff.reviewer);
                    speakers
                }
                _ => self.submission_speakers(&pool[..active], i),
            };
            let type_index = match i {
                0 => TALK,
                TWO_SLOTS => WORKSHOP,
                _ => self.weighted(&TYPE_WEIGHTS),
            };
            let mut submission = self.submission(
                &plan,
                i,
                state,
                &speakers,
                (type_index, &submission_types),
                &tracks,
                &tags,
            );
            if i == 0 && staffed {
                self.make_opening_talk(&plan, &mut submission);
            }
            if i == TWO_SLOTS {
                submission.slot_count = 2;
            }
            submissions.push(submission);
        }

        if plan.has_schedule() {
            self.schedule(&plan, &rooms, &submission_types, &mut submissions);
        }

        let mut profile_users: Vec<usize> = Vec::with_capacity(pool.len() + 3);
        if staffed {
            // Only those whose special submission exists (tiny demos have few).
            profile_users.extend([staff.orga, staff.speaker, staff.reviewer]);
            profile_users.retain(|&u| {
                submissions
                    .iter()
                    .any(|s| s.speakers.iter().any(|c| *c == self.users[u].code))
            });
        }
        profile_users.extend(&pool);
        let speakers: Vec<SpeakerProfile> = profile_users
            .iter()
            .map(|&u| self.profile(&plan, u))
            .collect();

        let seats = self.seats(plan.kind, staff, &extra_reviewers, &tracks);
        let reviews = self.reviews(&plan, &seats, &mut submissions);
        let answers = self.answers(&plan, &questions, &submissions, &speakers, &reviews);
        let teams = self.teams(&plan.slug, plan.kind, staff, &extra_reviewers, &tracks);

        let schedule = plan.has_schedule().then(|| {
            let published = plan.at(plan.first_day() - Duration::days(30), 10 * 60);
            let published = published + Duration::microseconds(self.rng.i64(0..3_600_000_000));
            Schedule {
                id: None,
                version: "1.0".to_string(),
                published: Some(published),
                comment: I18n::default(),
                breaks: self.breaks(&plan, &rooms),
            }
        });
        let review_phase = match plan.kind {
            EventKind::Showcase => Some(ReviewPhase::default()),
            EventKind::Private => Some(ReviewPhase {
                name: "Second round".to_string(),
                can_see_speaker_names: true,
                can_see_reviewer_names: false,
                can_see_other_reviews: OtherReviews::Always,
                proposal_visibility: ProposalVisibility::Assigned,
            }),
            EventKind::HiddenSchedule => None,
        };

        Event {
            date_from: plan.first_day(),
            date_to: plan.days.last().copied(),
            timezone: plan.tz.name().to_string(),
            locale: plan.locale.to_string(),
            locales: Vec::new(),
            content_locales: Vec::new(),
            email: String::new(),
            is_public: plan.kind != EventKind::Private,
            show_schedule: plan.kind != EventKind::HiddenSchedule,
            schedule,
            older_schedules: Vec::new(),
            wip_schedule: None,
            review_phase,
            score_categories: Vec::new(),
            teams,
            submission_types,
            tracks,
            rooms,
            tags,
            questions,
            speakers,
            submissions,
            answers,
            reviews,
            primary_color: (plan.kind == EventKind::Showcase).then(|| "#3AA57C".to_string()),
            logo: None,
            header_image: None,
            custom_domain: None,
            organiser: Some(DEMO_ORGANISER.to_string()),
            webhooks: Vec::new(),
            slug: plan.slug,
            name: plan.name,
        }
    }

    /// A lunch break every day in the first room, and a coffee break
    /// without a room on the first day.
    fn breaks(&mut self, plan: &EventPlan, rooms: &[Room]) -> Vec<Break> {
        let mut breaks: Vec<Break> = plan
            .days
            .iter()
            .map(|&day| Break {
                id: Some(next_id(&mut self.ids.slot_pk)),
                room: rooms.first().map(|r| r.id),
                start: plan.at(day, 12 * 60 + 30),
                end: plan.at(day, 13 * 60 + 30),
                description: i18n("Lunch break", Some("Mittagspause")),
            })
            .collect();
        if let Some(&day) = plan.days.first() {
            breaks.push(Break {
                id: Some(next_id(&mut self.ids.slot_pk)),
                room: None,
                start: plan.at(day, 15 * 60 + 30),
                end: plan.at(day, 16 * 60),
                description: i18n("Coffee & cake", Some("Kaffee & Kuchen")),
            });
        }
        breaks
    }

    /// One to three speakers; the `i`-th submission's first speaker is the
    /// pool's `i`-th, so every active speaker has at least one submission.
    fn submission_speakers(&mut self, pool: &[usize], i: usize) -> Vec<usize> {
        let wanted = self.weighted(&SPEAKER_COUNTS).min(pool.len());
        let first = match pool.get(i) {
            Some(&speaker) => speaker,
            None => pool[self.rng.usize(..pool.len())],
        };
        let mut speakers = vec![first];
        // Bounded retries: tiny pools may not have enough distinct people.
        for _ in 0..8 {
            if speakers.len() >= wanted {
                break;
            }
            let other = pool[self.rng.usize(..pool.len())];
            if !speakers.contains(&other) {
                speakers.push(other);
            }
        }
        speakers
    }

    #[allow(clippy::too_many_arguments)]
    fn submission(
        &mut self,
        plan: &EventPlan,
        i: usize,
        state: &str,
        speakers: &[usize],
        (type_index, types): (usize, &[SubmissionType]),
        tracks: &[Track],
        tags: &[Tag],
    ) -> Submission {
        let code = self.unique_code(CodeKind::Submission);
        let content_locale = match plan.locale {
            "de" => self.weighted(&[("de", 45), ("en", 50), ("fr", 5)]),
            _ => self.weighted(&[("en", 72), ("de", 20), ("fr", 8)]),
        };
        let words = words(content_locale);
        let topic = self.pick(words.topics);
        let mut title = self.title(words, topic);
        let lengths = [
            2 + self.rng.usize(..=1),
            2 + self.rng.usize(..=1),
            2 + self.rng.usize(..=2),
        ];
        let mut abstract_ = self.paragraph(words, topic, lengths[0]);
        let description = format!(
            "{}\n\n{}",
            self.paragraph(words, topic, lengths[1]),
            self.paragraph(words, topic, lengths[2]),
        );

        // Organisers anonymise some proposals still to decide (and the forced one).
        let anonymised = if matches!(state, "submitted" | "rejected")
            && (i == ANONYMISED || self.chance(0.08))
        {
            let company = self.pick(&COMPANIES);
            let speaker_name = self.users[speakers[0]].name.clone();
            let (named_title, anonymous_title) = words.company_title;
            let (named_intro, anonymous_intro) = words.company_intro;
            let anonymous = Anonymised {
                title: format!("{title}{anonymous_title}"),
                abstract_: format!("{anonymous_intro} {abstract_}"),
                description: String::new(),
            };
            title.push_str(&named_title.replace("{c}", company));
            abstract_ = format!(
                "{} {abstract_}",
                named_intro
                    .replace("{n}", &speaker_name)
                    .replace("{c}", company)
            );
            Some(anonymous)
        } else {
            None
        };

        let duration = if self.chance(0.25) {
            Some(self.pick(OTHER_DURATIONS[type_index]))
        } else {
            None
        };
        let scheduled = matches!(state, "accepted" | "confirmed");
        let pending_state = match state {
            "submitted" if self.chance(0.06) => Some("accepted"),
            "submitted" if self.chance(0.04) => Some("rejected"),
            "confirmed" if self.chance(0.02) => Some("canceled"),
            _ => None,
        };
        let (cfp_start, cfp_end) = plan.cfp_window();
        let tag_count = self.weighted(&[(0usize, 60), (1, 30), (2, 10)]);
        let tag_indices: Vec<usize> = (0..tags.len()).collect();
        let mut tag_ids: Vec<i64> = self
            .sample(&tag_indices, tag_count)
            .iter()
            .map(|&t| tags[t].id)
            .collect();
        tag_ids.sort_unstable();
        let resource_rate = if scheduled { 0.35 } else { 0.05 };
        let resources = if self.chance(resource_rate) {
            self.resources(&plan.slug, &code, topic)
        } else {
            Vec::new()
        };

        Submission {
            title,
            speakers: speakers.iter().map(|&u| self.code_of(u).into()).collect(),
            submission_type: types[type_index].id,
            track: if self.chance(0.9) {
                Some(tracks[self.rng.usize(..tracks.len())].id)
            } else {
                None
            },
            state: SubmissionState::from_name(state).expect("a known state"),
            pending_state: pending_state
                .map(|s| SubmissionState::from_name(s).expect("a known state")),
            abstract_,
            description,
            notes: if self.chance(0.4) {
                self.pick(&SPEAKER_NOTES).to_string()
            } else {
                String::new()
            },
            internal_notes: if self.chance(0.2) {
                self.pick(&INTERNAL_NOTES).to_string()
            } else {
                String::new()
            },
            duration,
            slot_count: 1,
            do_not_record: self.chance(0.08),
            is_featured: scheduled && self.chance(0.06),
            content_locale: content_locale.into(),
            image: self.chance(0.15).then(|| {
                format!(
                    "https://demo.example/media/{}/submissions/{}/image.png",
                    plan.slug,
                    code.to_lowercase()
                )
            }),
            created: self.instant_between(cfp_start, cfp_end),
            tags: tag_ids,
            resources,
            anonymised: anonymised.map(Box::new),
            assigned_reviewers: Vec::new(),
            slots: Vec::new(),
            id: Some(next_id(&mut self.ids.submission_pk)),
            code: code.into(),
            invitation_token: None,
            access_code: None,
            review_code: None,
        }
    }

    fn make_opening_talk(&mut self, plan: &EventPlan, submission: &mut Submission) {
        let name = plan.name.texts().next().unwrap_or("DemoConf").to_string();
        submission.title = format!("Opening: Welcome to {name}");
        submission.abstract_ = format!(
            "The organisers welcome everyone to {name}, explain the house rules and code of conduct, \
             and give a tour of the programme, the venue and the social events."
        );
        submission.description =
            "Expect a short history of the conference, thanks to our volunteers \
             and sponsors, and a few practical hints: where to find food, quiet rooms and help.\n\n\
             The opening is recorded and streamed."
                .to_string();
        submission.content_locale = "en".into();
        submission.track = None;
        submission.duration = Some(15);
        submission.is_featured = true;
        submission.do_not_record = false;
        submission.pending_state = None;
        // Slides only: a random "Source code" link would make no sense here.
        submission.resources.retain(|r| r.description == "Slides");
    }

    fn title(&mut self, words: &Words, topic: &str) -> String {
        let pattern = self.pick(words.title_patterns);
        let topic = if words.code == "en" {
            title_case(topic)
        } else if pattern.starts_with("{T}") {
            capitalise_first(topic)
        } else {
            topic.to_string()
        };
        let number = (2 + self.rng.u32(..11)).to_string();
        pattern.replace("{T}", &topic).replace("{N}", &number)
    }

    /// `sentences` sentences about `topic`, mixed with general ones.
    fn paragraph(&mut self, words: &Words, topic: &str, sentences: usize) -> String {
        let mut out = String::with_capacity(sentences * 90);
        for n in 0..sentences {
            if n > 0 {
                out.push(' ');
            }
            if n > 0 && self.chance(0.4) {
                out.push_str(self.pick(words.fillers));
            } else {
                // Name the topic first, then mostly refer back to it.
                let subject = if n > 0 && self.chance(0.6) {
                    self.pick(words.references)
                } else {
                    topic
                };
                out.push_str(self.pick(words.subjects));
                out.push(' ');
                out.push_str(&self.pick(words.predicates).replace("{t}", subject));
                out.push_str(self.pick(words.tails));
            }
        }
        out
    }

    fn resources(&mut self, slug: &str, code: &str, topic: &str) -> Vec<Resource> {
        let code = code.to_lowercase();
        let mut resources = vec![Resource {
            id: None,
            resource: format!("https://demo.example/media/{slug}/submissions/{code}/slides.pdf"),
            description: "Slides".to_string(),
            is_public: true,
        }];
        if self.chance(0.4) {
            resources.push(Resource {
                id: None,
                resource: format!("https://git.example.org/demo/{}", url_slug(topic)),
                description: "Source code".to_string(),
                is_public: true,
            });
        }
        // Some speakers leave notes for the organisers: a private resource.
        // Chosen by the code, not the generator, so every other record of
        // the demo stays as it was.
        if code.bytes().map(u32::from).sum::<u32>() % 5 == 0 {
            resources.push(Resource {
                id: None,
                resource: format!("https://demo.example/media/{slug}/submissions/{code}/notes.txt"),
                description: "Notes for the organisers".to_string(),
                is_public: false,
            });
        }
        resources
    }

    /// Slots on the released schedule: accepted and confirmed submissions,
    /// and about half of the canceled and withdrawn ones (they keep theirs).
    fn schedule(
        &mut self,
        plan: &EventPlan,
        rooms: &[Room],
        types: &[SubmissionType],
        submissions: &mut [Submission],
    ) {
        let mut timetable = Timetable::new(plan, rooms);
        for (i, submission) in submissions.iter_mut().enumerate() {
            let placed = match submission.state.as_str() {
                "accepted" | "confirmed" => true,
                "canceled" | "withdrawn" => i < FORCED_STATES.len() || self.rng.bool(),
                _ => false,
            };
            if !placed {
                continue;
            }
            let default = types
                .iter()
                .find(|t| t.id == submission.submission_type)
                .map_or(30, |t| t.default_duration);
            let minutes = submission.duration.unwrap_or(default);
            // Some accepted talks are on the schedule but not visible yet;
            // a few of those are not even placed in a room.
            let invisible = submission.state == SubmissionState::Accepted
                && (i == INVISIBLE || self.chance(0.25));
            if invisible && i != INVISIBLE && self.rng.bool() {
                let id = next_id(&mut self.ids.slot_pk);
                submission.slots.push(Slot {
                    room: None,
                    start: None,
                    end: None,
                    is_visible: false,
                    id: Some(id),
                    guid: Some(slot_guid(id)),
                });
                continue;
            }
            // Later parts of a multi-part session: same room and time on the following days.
            let (room, first_start) = timetable.place(minutes);
            for part in 0..submission.slot_count {
                let start = first_start + Duration::days(part);
                let id = next_id(&mut self.ids.slot_pk);
                submission.slots.push(Slot {
                    room: Some(room),
                    start: Some(start),
                    end: Some(start + Duration::minutes(minutes)),
                    is_visible: !invisible,
                    id: Some(id),
                    guid: Some(slot_guid(id)),
                });
            }
        }
    }

    fn profile(&mut self, plan: &EventPlan, user: usize) -> SpeakerProfile {
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
            .replace("{r}", self.pick(words.roles))
            .replace("{c}", self.pick(&COMPANIES))
            .replace("{y}", &years)
            .replace("{t}", self.pick(words.topics));
        if self.chance(0.7) {
            bio.push(' ');
            bio.push_str(&self.pick(words.hobbies).replace("{f}", &first));
        }
        bio
    }

    // ---- reviewing ----------------------------------------------------------

    fn seats(
        &self,
        kind: EventKind,
        staff: &Staff,
        extra: &[usize],
        tracks: &[Track],
    ) -> Vec<Seat> {
        let all = |user: usize| Seat {
            code: self.code_of(user),
            tracks: None,
        };
        let limited = Seat {
            code: self.code_of(staff.track_reviewer),
            tracks: Some(limited_tracks(tracks)),
        };
        let mut seats: Vec<Seat> = match kind {
            // The blind reviewer has not reviewed yet: `after_review` hides the others' reviews.
            EventKind::Showcase => vec![all(staff.reviewer)],
            EventKind::Private => vec![all(staff.reviewer), all(staff.blind_reviewer)],
            EventKind::HiddenSchedule => Vec::new(),
        };
        seats.extend(extra.iter().map(|&u| all(u)));
        seats.push(limited);
        seats
    }

    /// About two reviews per submission by reviewers who may see it and do
    /// not speak in it; in an `assigned` phase only by assigned reviewers.
    fn reviews(
        &mut self,
        plan: &EventPlan,
        seats: &[Seat],
        submissions: &mut [Submission],
    ) -> Vec<Review> {
        let assigned_only = plan.kind == EventKind::Private;
        let (from, to) = plan.review_window();
        let mut reviews = Vec::with_capacity(submissions.len() * 2);
        for submission in submissions.iter_mut() {
            let outsiders: Vec<usize> = (0..seats.len())
                .filter(|&s| !submission.speakers.iter().any(|c| *c == seats[s].code))
                .collect();
            let assigned = if assigned_only {
                let count = 1 + self.rng.usize(..3);
                self.sample(&outsiders, count)
            } else if self.chance(0.03) {
                self.sample(&outsiders, 1)
            } else {
                Vec::new()
            };
            submission.assigned_reviewers =
                assigned.iter().map(|&s| seats[s].code.clone()).collect();
            let candidates: Vec<usize> = if assigned_only {
                assigned
            } else {
                outsiders
                    .into_iter()
                    .filter(|&s| seats[s].covers(submission.track) || assigned.contains(&s))
                    .collect()
            };
            let count = self.weighted(&REVIEW_COUNTS);
            for seat in self.sample(&candidates, count) {
                let created = self.instant_between(from, to);
                let updated = if self.rng.bool() {
                    created
                } else {
                    created + Duration::seconds(self.rng.i64(60..10 * 86_400))
                };
                let text = if self.chance(0.75) {
                    self.pick(&REVIEW_TEXTS).to_string()
                } else {
                    String::new()
                };
                reviews.push(Review {
                    id: next_id(&mut self.ids.review),
                    submission: submission.code.as_str().into(),
                    user: seats[seat].code.as_str().into(),
                    text: text.into(),
                    score: self.score(),
                    created,
                    updated,
                    scores: Box::default(),
                });
            }
        }
        reviews
    }

    fn score(&mut self) -> Option<f64> {
        if self.chance(0.08) {
            return None;
        }
        let whole = f64::from(self.weighted(&SCORES));
        Some(if whole < 5.0 && self.chance(0.2) {
            whole + 0.5
        } else {
            whole
        })
    }

    fn teams(
        &self,
        slug: &str,
        kind: EventKind,
        staff: &Staff,
        extra: &[usize],
        tracks: &[Track],
    ) -> Vec<Team> {
        let codes = |users: &[usize]| users.iter().map(|&u| self.code_of(u)).collect::<Vec<_>>();
        let team = |name: &str, members: Vec<String>| Team {
            name: name.to_string(),
            members,
            // One organiser for every demo event, each event with teams
            // of its own.
            id: Some(derived_id(&["team", DEMO_ORGANISER, slug, name])),
            limit_events: vec![slug.to_string()],
            ..Team::default()
        };
        let limit = limited_tracks(tracks);
        let track_names: Vec<&str> = tracks
            .iter()
            .filter(|t| limit.contains(&t.id))
            .filter_map(|t| t.name.texts().next())
            .collect();
        let organisers = Team {
            can_change_submissions: true,
            can_change_teams: true,
            can_change_event_settings: true,
            // Programme chairs also review; organiser rights take precedence.
            is_reviewer: kind == EventKind::HiddenSchedule,
            ..team("Organisers", codes(&[staff.orga]))
        };
        let track_reviewers = Team {
            is_reviewer: true,
            limit_tracks: limit.clone(),
            ..team(
                &format!("Track reviewers: {}", track_names.join(" & ")),
                codes(&[staff.track_reviewer]),
            )
        };
        let blind_reviewers = Team {
            is_reviewer: true,
            force_hide_speaker_names: true,
            ..team("Blind reviewers", codes(&[staff.blind_reviewer]))
        };
        // A team without rights: its members are the public here.
        let volunteers = team("Volunteers", codes(&[staff.speaker]));
        let reviewers = |lead: &[usize]| Team {
            is_reviewer: true,
            ..team("Programme committee", codes(&[lead, extra].concat()))
        };
        match kind {
            EventKind::Showcase => vec![
                organisers,
                reviewers(&[staff.reviewer]),
                track_reviewers,
                blind_reviewers,
                volunteers,
            ],
            // The blind reviewer is also in an ordinary team: names shown here.
            EventKind::Private => vec![
                organisers,
                reviewers(&[staff.reviewer, staff.blind_reviewer]),
                blind_reviewers,
                track_reviewers,
            ],
            EventKind::HiddenSchedule => {
                vec![organisers, reviewers(&[]), track_reviewers, volunteers]
            }
        }
    }

    // ---- answers ----------------------------------------------------------

    fn answers(
        &mut self,
        plan: &EventPlan,
        questions: &[Question],
        submissions: &[Submission],
        speakers: &[SpeakerProfile],
        reviews: &[Review],
    ) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(submissions.len() * 5);
        let on_submissions = questions_for(questions, "submission");
        let on_speakers = questions_for(questions, "speaker");
        let on_reviews = questions_for(questions, "reviewer");

        for submission in submissions {
            for &(index, question) in &on_submissions {
                let template = &QUESTIONS[index];
                let applies = match template.scope {
                    Scope::All => true,
                    Scope::FirstTrack => {
                        submission.track.is_some()
                            && question.tracks.first() == submission.track.as_ref()
                    }
                    Scope::Workshops => question
                        .submission_types
                        .contains(&submission.submission_type),
                };
                if applies && self.chance(template.answer_rate) {
                    let owner = Owner::Submission(&submission.code);
                    answers.push(self.answer(plan, template, question, owner));
                }
            }
        }
        for profile in speakers {
            for &(index, question) in &on_speakers {
                let template = &QUESTIONS[index];
                if self.chance(template.answer_rate) {
                    answers.push(self.answer(
                        plan,
                        template,
                        question,
                        Owner::Person(&profile.user),
                    ));
                }
            }
        }
        for review in reviews {
            for &(index, question) in &on_reviews {
                let template = &QUESTIONS[index];
                if self.chance(template.answer_rate) {
                    answers.push(self.answer(plan, template, question, Owner::Review(review.id)));
                }
            }
        }
        answers
    }

    fn answer(
        &mut self,
        plan: &EventPlan,
        template: &QuestionTemplate,
        question: &Question,
        owner: Owner,
    ) -> Answer {
        let mut options = Vec::new();
        let mut answer_file = None;
        let text = match template.sample {
            Sample::LearningOutcomes => {
                let first = self.pick(&LEARNING_OUTCOMES);
                let second = self.pick(&LEARNING_OUTCOMES);
                format!("Attendees will learn {first}. They will also see {second}.")
            }
            Sample::Choice => {
                let option = &question.options[self.rng.usize(..question.options.len())];
                options.push(option.id);
                option.answer.texts().next().unwrap_or_default().to_string()
            }
            Sample::Choices => {
                let count = 1 + self.rng.usize(..3);
                let mut chosen =
                    self.sample(&(0..question.options.len()).collect::<Vec<_>>(), count);
                chosen.sort_unstable();
                options = chosen.iter().map(|&o| question.options[o].id).collect();
                chosen
                    .iter()
                    .filter_map(|&o| question.options[o].answer.texts().next())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            Sample::YesNo => (if self.rng.bool() { "True" } else { "False" }).to_string(),
            Sample::VideoUrl => {
                format!("https://video.example.org/w/{}", self.code().to_lowercase())
            }
            Sample::Homepage => format!("https://{}.example.net/", owner.label().to_lowercase()),
            Sample::SlidesFile => {
                answer_file = Some(format!(
                    "https://demo.example/media/{}/questions/{}/slides-draft.pdf",
                    plan.slug,
                    owner.label().to_lowercase()
                ));
                // pretalx stores file answers as `file://` plus the file name.
                "file://slides-draft.pdf".to_string()
            }
            Sample::Participants => (8 + self.rng.u32(..33)).to_string(),
            Sample::EventDay => self.pick(&plan.days).to_string(),
            Sample::Arrival => {
                let day = plan.first_day() - Duration::days(self.rng.i64(0..2));
                let at = plan.at(
                    day,
                    (14 + self.rng.i64(0..8)) * 60 + 15 * self.rng.i64(0..4),
                );
                crate::domain::time::format_in(&at, &plan.tz)
            }
            Sample::Repository => format!(
                "https://git.example.org/workshops/{}",
                owner.label().to_lowercase()
            ),
            Sample::ShirtSize => self.pick(&["S", "M", "L", "XL", "XXL"]).to_string(),
            Sample::Fediverse => {
                let instance = self.pick(&["social.example", "chaos.example", "fosstodon.example"]);
                format!("@{}@{instance}", owner.label().to_lowercase())
            }
        };
        let (submission, person, review) = match owner {
            Owner::Submission(code) => (Some(code.into()), None, None),
            Owner::Person(code) => (None, Some(code.into()), None),
            Owner::Review(id) => (None, None, Some(id)),
        };
        Answer {
            id: next_id(&mut self.ids.answer),
            question: question.id,
            answer: text.into(),
            answer_file: answer_file.map(Into::into),
            submission,
            person,
            review,
            options: options.into(),
        }
    }
}

enum CodeKind {
    User,
    Submission,
}

/// What an answer belongs to.
#[derive(Clone, Copy)]
enum Owner<'a> {
    Submission(&'a str),
    Person(&'a str),
    Review(i64),
}

impl Owner<'_> {
    /// A stable word for URLs and handles.
    fn label(&self) -> String {
        match self {
            Owner::Submission(code) | Owner::Person(code) => code.to_string(),
            Owner::Review(id) => format!("review{id}"),
        }
    }
}

/// Lays talks out room by room and day by day from 09:00, with breaks. When
/// the days are full it starts over: huge demos get overlapping slots, which
/// is fine (nothing requires a conflict-free schedule).
struct Timetable<'a> {
    plan: &'a EventPlan,
    rooms: Vec<i64>,
    /// Minutes used since the day's start, per day and room.
    used: Vec<Vec<i64>>,
    day: usize,
    next_room: usize,
}

impl<'a> Timetable<'a> {
    fn new(plan: &'a EventPlan, rooms: &[Room]) -> Self {
        Timetable {
            plan,
            rooms: rooms.iter().map(|r| r.id).collect(),
            used: vec![vec![0; rooms.len()]; plan.days.len()],
            day: 0,
            next_room: 0,
        }
    }

    fn place(&mut self, minutes: i64) -> (i64, Timestamp) {
        let room_count = self.rooms.len();
        loop {
            for step in 0..room_count {
                let room = (self.next_room + step) % room_count;
                let used = self.used[self.day][room];
                // An over-long session still gets an empty room-day.
                if used + minutes <= DAY_LENGTH_MINUTES || used == 0 {
                    self.used[self.day][room] = round_up(used + minutes + BREAK_MINUTES, 5);
                    self.next_room = (room + 1) % room_count;
                    let start = self
                        .plan
                        .at(self.plan.days[self.day], DAY_START_MINUTES + used);
                    return (self.rooms[room], start);
                }
            }
            self.day += 1;
            if self.day == self.plan.days.len() {
                self.day = 0;
                for day in &mut self.used {
                    day.iter_mut().for_each(|used| *used = 0);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/// The questions with `target`, with their index into [`QUESTIONS`].
fn questions_for<'q>(questions: &'q [Question], target: &str) -> Vec<(usize, &'q Question)> {
    questions
        .iter()
        .enumerate()
        .filter(|(_, q)| q.target.as_str() == target)
        .collect()
}

/// The tracks of the track-limited reviewer team: the first two.
fn limited_tracks(tracks: &[Track]) -> Vec<i64> {
    tracks.iter().take(2).map(|t| t.id).collect()
}

fn i18n(en: &str, de: Option<&str>) -> I18n {
    let mut texts = vec![("en".to_string(), en.to_string())];
    if let Some(de) = de {
        texts.push(("de".to_string(), de.to_string()));
    }
    I18n(texts, false)
}

fn utc(year: i32, month: u32, day: u32, hour: u32) -> Timestamp {
    Utc.with_ymd_and_hms(year, month, day, hour, 0, 0)
        .single()
        .expect("a fixed, valid UTC time")
}

/// `minutes` after local midnight of `date` in `tz`, as UTC. Demo times are
/// never in a DST gap; `earliest` also settles the ambiguous hour.
fn local_time(tz: &Tz, date: NaiveDate, minutes: i64) -> Timestamp {
    let naive = date.and_hms_opt(0, 0, 0).expect("midnight exists") + Duration::minutes(minutes);
    tz.from_local_datetime(&naive)
        .earliest()
        .expect("demo times avoid DST gaps")
        .with_timezone(&Utc)
}

fn round_up(value: i64, step: i64) -> i64 {
    (value + step - 1) / step * step
}

/// 40 lower-case hex characters, like pretalx API tokens.
fn token(rng: &mut Rng) -> String {
    format!(
        "{:016x}{:016x}{:08x}",
        rng.u64(..),
        rng.u64(..),
        rng.u32(..)
    )
}

/// A random version-4 UUID.
fn uuid(rng: &mut Rng) -> String {
    let high = rng.u64(..);
    let low = rng.u64(..);
    let high = (high & !0xf000) | 0x4000;
    let low = (low & !(0b11 << 62)) | (0b10 << 62);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// Lower-case ASCII for e-mail addresses: umlauts spelt out, accents dropped.
fn ascii_lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'a'..='z' | '0'..='9' => out.push(c),
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            'á' | 'à' | 'â' | 'å' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'í' | 'ì' | 'î' | 'ı' => out.push('i'),
            'ó' | 'ò' | 'ô' | 'ø' => out.push('o'),
            'ú' | 'ù' | 'û' => out.push('u'),
            'ñ' => out.push('n'),
            'ç' | 'č' => out.push('c'),
            'ł' => out.push('l'),
            _ => {}
        }
    }
    out
}

/// `distributed tracing` → `distributed-tracing`.
fn url_slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    out
}

fn capitalise_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// English title case: every word capitalised except short function words.
fn title_case(text: &str) -> String {
    const SMALL: [&str; 10] = ["a", "an", "and", "as", "at", "for", "in", "of", "on", "the"];
    text.split(' ')
        .enumerate()
        .map(|(i, word)| {
            if i > 0 && SMALL.contains(&word) {
                word.to_string()
            } else {
                // `memory-safe` → `Memory-Safe`
                word.split('-')
                    .map(capitalise_first)
                    .collect::<Vec<_>>()
                    .join("-")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;
    use crate::dataset::export;
    use crate::model::{QuestionTarget, QuestionVariant, SubmissionState};

    fn small() -> DemoOptions {
        DemoOptions {
            events: 3,
            submissions: 40,
            seed: 7,
        }
    }

    /// The generated document passes import validation. (The reference
    /// validator, shared/conformance/validate_dataset.py, checks the same
    /// demos in scripts/suites.py.)
    fn validate(options: &DemoOptions) {
        let (dataset, _) = generate(options);
        let document = export::to_json(&dataset);
        if let Err(problems) = crate::dataset::validate::parse_value(&document) {
            panic!("{options:?} is invalid: {problems:#?}");
        }
    }

    #[test]
    fn same_options_give_the_same_dataset() {
        let options = small();
        let (first, first_logins) = generate(&options);
        let (second, second_logins) = generate(&options);
        assert_eq!(export::to_json(&first), export::to_json(&second));
        let tokens =
            |logins: &[DemoLogin]| logins.iter().map(|l| l.token.clone()).collect::<Vec<_>>();
        assert_eq!(tokens(&first_logins), tokens(&second_logins));

        let (other, other_logins) = generate(&DemoOptions { seed: 8, ..options });
        assert_ne!(export::to_json(&first), export::to_json(&other));
        assert_ne!(tokens(&first_logins), tokens(&other_logins));
    }

    #[test]
    fn logins_do_not_depend_on_the_size() {
        let (_, small_logins) = generate(&DemoOptions {
            submissions: 10,
            ..DemoOptions::default()
        });
        let (_, default_logins) = generate(&DemoOptions::default());
        let tokens =
            |logins: &[DemoLogin]| logins.iter().map(|l| l.token.clone()).collect::<Vec<_>>();
        assert_eq!(tokens(&small_logins), tokens(&default_logins));
    }

    #[test]
    fn default_demo_is_valid() {
        validate(&DemoOptions::default());
    }

    #[test]
    fn three_small_events_are_valid() {
        validate(&small());
    }

    #[test]
    fn tiny_and_empty_demos_are_valid() {
        for submissions in [0, 1, 3] {
            validate(&DemoOptions {
                events: 2,
                submissions,
                seed: 1,
            });
        }
    }

    #[test]
    fn every_state_variant_and_target_occurs() {
        let (dataset, _) = generate(&DemoOptions::default());
        for event in &dataset.events {
            let states: HashSet<&str> =
                event.submissions.iter().map(|s| s.state.as_str()).collect();
            for state in SubmissionState::NAMES {
                assert!(
                    states.contains(state),
                    "{} has no {state} submission",
                    event.slug
                );
            }
            let variants: HashSet<&str> =
                event.questions.iter().map(|q| q.variant.as_str()).collect();
            assert_eq!(variants.len(), QuestionVariant::NAMES.len());
            let targets: HashSet<&str> =
                event.questions.iter().map(|q| q.target.as_str()).collect();
            assert_eq!(targets.len(), QuestionTarget::NAMES.len());
            let required: HashSet<&str> = event
                .questions
                .iter()
                .map(|q| q.question_required.as_str())
                .collect();
            assert_eq!(required.len(), 3);
            assert!(event.questions.iter().any(|q| !q.active));
            assert!(event.questions.iter().any(|q| !q.is_visible_to_reviewers));
            assert!(event.questions.iter().any(|q| !q.tracks.is_empty()));
            assert!(
                event.questions.iter().any(|q| q.is_public)
                    && event.questions.iter().any(|q| !q.is_public)
            );
            for q in event
                .questions
                .iter()
                .filter(|q| q.variant.as_str().contains("choice"))
            {
                assert!(!q.options.is_empty(), "question {} has no options", q.id);
            }
            // Answers carry options of their own question only.
            let options: HashMap<i64, Vec<i64>> = event
                .questions
                .iter()
                .map(|q| (q.id, q.options.iter().map(|o| o.id).collect()))
                .collect();
            for answer in &event.answers {
                assert!(answer
                    .options
                    .iter()
                    .all(|o| options[&answer.question].contains(o)));
            }
            let answered: HashSet<&str> = event
                .answers
                .iter()
                .map(|a| {
                    if a.submission.is_some() {
                        "submission"
                    } else if a.person.is_some() {
                        "speaker"
                    } else {
                        "reviewer"
                    }
                })
                .collect();
            assert_eq!(
                answered.len(),
                3,
                "{} lacks answers of some target",
                event.slug
            );
            assert!(event.tags.iter().any(|t| t.tag.contains('.')));
            assert!(event.rooms.iter().any(|r| r.guid.is_none()));
            assert!(event.rooms.iter().any(|r| r.guid.is_some()));
            assert!((4..=6).contains(&event.tracks.len()));
            assert!((3..=6).contains(&event.rooms.len()));
            assert!((5..=8).contains(&event.tags.len()));
        }
    }

    #[test]
    fn first_event_exercises_every_role() {
        let (dataset, logins) = generate(&DemoOptions::default());
        let event = &dataset.events[0];
        assert_eq!(event.slug, "democonf");
        assert_eq!(event.timezone, "Europe/Berlin");
        assert_eq!(event.date_from.to_string().get(..4), Some("2027"));
        assert!(event.is_public && event.show_schedule && event.schedule.is_some());

        let public_talk = event.submissions.iter().any(|s| {
            s.state == SubmissionState::Confirmed
                && s.slots.iter().any(|sl| sl.is_visible && sl.start.is_some())
        });
        assert!(public_talk, "no public talk");
        assert!(event
            .submissions
            .iter()
            .any(|s| s.slots.len() == 2 && s.slot_count == 2));
        assert!(event
            .submissions
            .iter()
            .any(|s| s.slots.iter().any(|sl| !sl.is_visible)));
        assert!(event
            .submissions
            .iter()
            .any(|s| matches!(s.state.as_str(), "canceled" | "withdrawn")
                && s.slots.iter().any(|sl| sl.is_visible)));
        let anonymised = event
            .submissions
            .iter()
            .find_map(|s| s.anonymised.as_ref().map(|a| (s, a)))
            .expect("an anonymised submission");
        assert!(!anonymised.1.title.is_empty() && !anonymised.1.abstract_.is_empty());
        assert_ne!(anonymised.0.title, anonymised.1.title);
        assert!(event.submissions.iter().any(|s| s.pending_state.is_some()));
        assert!(event.submissions.iter().any(|s| s.is_featured));
        assert!(event.submissions.iter().any(|s| s.do_not_record));
        assert!(event.submissions.iter().any(|s| !s.resources.is_empty()));
        // `portable` leaves the private ones out, and only them.
        let mut plain = dataset.clone();
        portable(&mut plain);
        let count = |d: &Dataset, public: bool| {
            d.events
                .iter()
                .flat_map(|e| &e.submissions)
                .flat_map(|s| &s.resources)
                .filter(|r| r.is_public == public)
                .count()
        };
        assert_eq!(count(&plain, false), 0);
        assert_eq!(count(&plain, true), count(&dataset, true));
        // Nor does it write the organiser and the teams' organiser-level
        // fields (`shared/spec/dataset.md` knows neither).
        let written = crate::dataset::export::to_json(&plain);
        for event in written["events"].as_array().unwrap() {
            assert!(event.get("organiser").is_none());
            for team in event["teams"].as_array().unwrap() {
                let mut keys: Vec<&str> = team
                    .as_object()
                    .unwrap()
                    .keys()
                    .map(|k| k.as_str())
                    .collect();
                keys.sort_unstable();
                assert_eq!(
                    keys,
                    [
                        "can_change_submissions",
                        "force_hide_speaker_names",
                        "is_reviewer",
                        "limit_tracks",
                        "members",
                        "name"
                    ]
                );
            }
        }
        // A talk on the public schedule with a private resource beside a public one.
        assert!(event.submissions.iter().any(|s| {
            s.slots.iter().any(|sl| sl.is_visible)
                && s.resources.iter().any(|r| !r.is_public)
                && s.resources.iter().any(|r| r.is_public)
        }));
        assert!(event.submissions.iter().any(|s| s.image.is_some()));
        assert!(event.submissions.iter().any(|s| s.duration.is_none()));
        let locales: HashSet<&str> = event
            .submissions
            .iter()
            .map(|s| s.content_locale.as_str())
            .collect();
        assert!(locales.contains("en") && locales.contains("de") && locales.contains("fr"));
        assert!(event.reviews.iter().any(|r| r.score.is_none()));
        assert!(event
            .reviews
            .iter()
            .any(|r| r.score.is_some_and(|s| s.fract() != 0.0)));

        // Tokens match, and each login has its role in the first event.
        let users: HashMap<&str, &User> = dataset
            .users
            .iter()
            .map(|u| (u.email.as_str(), u))
            .collect();
        let code = |role: &str| {
            let login = logins
                .iter()
                .find(|l| l.role == role)
                .expect("a login per role");
            users[login.email.as_str()].code.clone()
        };
        for login in &logins {
            let user = users[login.email.as_str()];
            assert_eq!(login.token.len(), 40);
            assert!(login
                .token
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
            assert_eq!(
                user.token_hashes,
                vec![TokenHash::plain(hash_token(&login.token))]
            );
        }
        assert!(users["admin@demo.example"].is_administrator);
        let teams_of = |code: &str| {
            event
                .teams
                .iter()
                .filter(|t| t.members.iter().any(|m| m == code))
                .collect::<Vec<_>>()
        };
        assert!(teams_of(&code("organiser"))
            .iter()
            .any(|t| t.can_change_submissions));
        let reviewer = teams_of(&code("reviewer"));
        assert!(
            reviewer
                .iter()
                .any(|t| t.is_reviewer && t.limit_tracks.is_empty())
                && reviewer.iter().all(|t| !t.can_change_submissions)
        );
        let track = teams_of(&code("track reviewer"));
        assert!(
            !track.is_empty()
                && track
                    .iter()
                    .all(|t| t.is_reviewer && !t.limit_tracks.is_empty())
        );
        let blind = teams_of(&code("blind reviewer"));
        assert!(
            !blind.is_empty()
                && blind
                    .iter()
                    .all(|t| t.is_reviewer && t.force_hide_speaker_names)
        );
        let speaker = code("speaker");
        assert!(teams_of(&speaker)
            .iter()
            .all(|t| !t.is_reviewer && !t.can_change_submissions));
        assert!(event
            .submissions
            .iter()
            .any(|s| s.speakers.iter().any(|c| *c == *speaker)
                && s.state == SubmissionState::Confirmed));
        assert!(event.reviews.iter().any(|r| r.user == code("reviewer")));
        assert!(event
            .reviews
            .iter()
            .any(|r| r.user == code("track reviewer")));

        let second = &dataset.events[1];
        assert_eq!(second.slug, "democonf2");
        assert!(!second.is_public && second.schedule.is_none());
        assert!(second.submissions.iter().all(|s| s.slots.is_empty()));
    }

    #[test]
    fn v1_fields_are_filled() {
        let (dataset, _) = generate(&DemoOptions::default());
        let showcase = &dataset.events[0];
        let private = &dataset.events[1];
        for event in &dataset.events {
            assert!(event.locales().len() == 2 && event.locales()[0] == event.locale);
            assert!(!event.email.is_empty() && event.logo.is_some());
            assert!(!event.score_categories.is_empty());
            assert!(event.score_categories.iter().any(|c| !c.active));
            assert!(event
                .score_categories
                .iter()
                .any(|c| c.is_independent && !c.limit_tracks.is_empty()));
            assert!(event.reviews.iter().any(|r| r.scores.len() >= 2));
            assert!(event
                .rooms
                .iter()
                .all(|r| r.guid.is_some() != r.uuid.is_some()));
            assert!(event.tracks.iter().any(|t| t.requires_access_code));
            assert!(event.submission_types.iter().any(|t| t.deadline.is_some()));
            assert!(event
                .submission_types
                .iter()
                .any(|t| t.requires_access_code));
            let question = |variant: QuestionVariant| {
                event
                    .questions
                    .iter()
                    .find(|q| q.variant == variant)
                    .expect("a question of each variant")
            };
            assert!(question(QuestionVariant::Number).max_number.is_some());
            assert!(question(QuestionVariant::Date).min_date.is_some());
            assert!(question(QuestionVariant::Datetime).max_datetime.is_some());
            assert!(event
                .questions
                .iter()
                .any(|q| q.icon.is_some() && q.options.iter().any(|o| o.position.is_some())));
            assert!(event.speakers.iter().any(|p| !p.internal_notes.is_empty()));
            assert!(event
                .submissions
                .iter()
                .all(|s| s.invitation_token.is_some() && s.review_code.is_some()));
            assert!(event.submissions.iter().any(|s| s.access_code.is_some()));
            assert!(event
                .submissions
                .iter()
                .flat_map(|s| &s.resources)
                .all(|r| r.id.is_some()));
            assert!(event.wip_schedule.is_some());
        }
        // The showcase: content in three languages, images, arrivals, a
        // history of releases with notes.
        assert_eq!(showcase.content_locales(), ["en", "de", "fr"]);
        assert!(showcase.header_image.is_some() && showcase.custom_domain.is_some());
        assert!(showcase.speakers.iter().any(|p| p.has_arrived));
        let schedule = showcase.schedule.as_ref().expect("released");
        assert!(schedule.id.is_some() && !schedule.comment.is_empty());
        let versions: Vec<&str> = showcase
            .older_schedules
            .iter()
            .map(|s| s.version.as_str())
            .collect();
        assert_eq!(versions, ["0.1", "0.9"]);
        assert!(showcase.older_schedules[0].published < showcase.older_schedules[1].published);
        assert!(showcase.older_schedules[1].published < schedule.published.expect("published"));
        let previous = &showcase.older_schedules[1].slots;
        assert!(previous
            .iter()
            .any(|s| s.submission.is_none() && !s.description.is_empty()));
        assert!(previous.iter().any(|s| {
            let code = s.submission.as_deref();
            showcase
                .submissions
                .iter()
                .any(|sub| Some(sub.code.as_str()) == code && sub.slots.is_empty())
        }));
        let wip = showcase.wip_schedule.as_ref().expect("wip");
        assert!(!wip.comment.is_empty() && !wip.slots.is_empty());
        // Nothing released: no history, a work in progress of unplaced talks.
        assert!(private.schedule.is_none() && private.older_schedules.is_empty());
        let wip = private.wip_schedule.as_ref().expect("wip");
        assert!(!wip.slots.is_empty() && wip.slots.iter().all(|s| s.start.is_none()));
    }

    #[test]
    fn v1_fields_change_nothing_else() {
        let options = small();
        let (mut filled, filled_logins) = generate(&options);
        let (plain, plain_logins) = generate_without_v1(&options);
        assert_ne!(filled, plain);
        // `clear` (what `portable` does) undoes every value `fill` set.
        v1::clear(&mut filled);
        assert_eq!(filled, plain);
        let tokens =
            |logins: &[DemoLogin]| logins.iter().map(|l| l.token.clone()).collect::<Vec<_>>();
        assert_eq!(tokens(&filled_logins), tokens(&plain_logins));
    }

    #[test]
    fn v1_fields_round_trip_through_export() {
        let (dataset, _) = generate(&small());
        let document = export::to_json(&dataset);
        let again = crate::dataset::validate::parse_value(&document).expect("valid");
        // (As JSON values: the model keeps the order of translations, which
        // a parsed `serde_json::Value` does not.)
        assert_eq!(
            export::to_json(&again),
            document,
            "what the demo fills is what validation reads back"
        );
    }

    #[test]
    fn ids_and_codes_are_unique_and_references_hold() {
        let (dataset, _) = generate(&small());
        let codes: HashSet<&str> = dataset.users.iter().map(|u| u.code.as_str()).collect();
        assert_eq!(codes.len(), dataset.users.len());
        let emails: HashSet<String> = dataset
            .users
            .iter()
            .map(|u| u.email.to_lowercase())
            .collect();
        assert_eq!(emails.len(), dataset.users.len());
        let mut submission_codes = HashSet::new();
        let mut review_ids = HashSet::new();
        let mut answer_ids = HashSet::new();
        for event in &dataset.events {
            let profiles: HashSet<&str> = event.speakers.iter().map(|p| p.user.as_str()).collect();
            assert_eq!(profiles.len(), event.speakers.len());
            let mut pairs = HashSet::new();
            for s in &event.submissions {
                assert!(submission_codes.insert(s.code.clone()));
                assert!(
                    (1..=16).contains(&s.code.len())
                        && s.code.chars().all(|c| c.is_ascii_alphanumeric())
                );
                assert!(s.speakers.iter().all(|u| profiles.contains(u.as_str())));
            }
            for r in &event.reviews {
                assert!(review_ids.insert(r.id));
                assert!(pairs.insert((r.user.clone(), r.submission.clone())));
                let submission = event
                    .submissions
                    .iter()
                    .find(|s| s.code == r.submission)
                    .expect("reviewed submission exists");
                assert!(
                    !submission.speakers.contains(&r.user),
                    "a speaker reviewed their own submission"
                );
            }
            for a in &event.answers {
                assert!(answer_ids.insert(a.id));
            }
        }
    }

    #[test]
    fn twenty_thousand_submissions_stay_realistic() {
        let n = 20_000;
        let (dataset, _) = generate(&DemoOptions {
            events: 1,
            submissions: n,
            seed: 1,
        });
        let event = &dataset.events[0];
        assert_eq!(event.submissions.len(), n);
        let profiles = event.speakers.len() as f64 / n as f64;
        assert!(
            (0.75..0.9).contains(&profiles),
            "{profiles} profiles per submission"
        );
        let answers = event.answers.len() as f64 / n as f64;
        assert!(
            (4.0..8.0).contains(&answers),
            "{answers} answers per submission"
        );
        let submission_answers = event
            .answers
            .iter()
            .filter(|a| a.submission.is_some())
            .count() as f64
            / n as f64;
        assert!(
            (2.5..4.0).contains(&submission_answers),
            "{submission_answers} answers on each submission"
        );
        let reviews = event.reviews.len() as f64 / n as f64;
        assert!(
            (1.6..2.4).contains(&reviews),
            "{reviews} reviews per submission"
        );
        let mut per_submission: HashMap<&str, usize> = HashMap::new();
        for r in &event.reviews {
            *per_submission.entry(r.submission.as_str()).or_default() += 1;
        }
        assert!(per_submission.values().all(|&c| c <= 4));
        let mut per_speaker: HashMap<&str, usize> = HashMap::new();
        for s in &event.submissions {
            for u in &s.speakers {
                *per_speaker.entry(u.as_str()).or_default() += 1;
            }
        }
        assert!(
            per_speaker.values().any(|&c| c >= 3),
            "nobody has several submissions"
        );
        let codes: HashSet<&str> = event.submissions.iter().map(|s| s.code.as_str()).collect();
        assert_eq!(codes.len(), n);
        let reviewers: HashSet<&str> = event.reviews.iter().map(|r| r.user.as_str()).collect();
        assert!(reviewers.len() <= 62);
    }
}
