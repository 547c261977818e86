//! The schedule exports (shared/spec/exports.md) over HTTP: full bodies of
//! every format for a small event, then the rules on a larger one (callers
//! and visibility, the frab day rule, several slots of one talk, escaping,
//! unique ids, guids and slugs, conditional requests, HEAD, headers).

use std::collections::HashSet;

use serde_json::{json, Value};

use crate::helpers::{http_client_builder, Reply, TestServer};

const VERSION: &str = env!("CARGO_PKG_VERSION");

const WHOLE: [&str; 11] = [
    "schedule/export/schedule.xml",
    "schedule.xml",
    "schedule/export/schedule.json",
    "schedule.json",
    "schedule/export/schedule.xcal",
    "schedule.xcal",
    "schedule/export/schedule.ics",
    "schedule.ics",
    "schedule/widgets/schedule.json",
    "schedule/widget/v2.json",
    "schedule/feed.xml",
];

fn users() -> Value {
    json!([
        {"code": "ORGA", "name": "Olga Organiser", "email": "orga@expo.example", "tokens": ["orga-token"]},
        {"code": "ADMIN", "name": "Ann Admin", "email": "admin@expo.example", "tokens": ["admin-token"],
         "is_administrator": true},
        {"code": "REV", "name": "Rita Reviewer", "email": "rev@expo.example", "tokens": ["rev-token"]},
        {"code": "NOBODY", "name": "No Body", "email": "nobody@expo.example", "tokens": ["nobody-token"]},
        {"code": "SPK1", "name": "Ada Speaker", "email": "ada@expo.example", "id": 11,
         "avatar": "https://img.example/ada.png"},
        {"code": "SPK2", "name": "Bob \"B\" <Talker> & Co", "email": "bob@expo.example", "id": 12}
    ])
}

fn teams() -> Value {
    json!([
        {"name": "Organisers", "members": ["ORGA"], "can_change_submissions": true},
        {"name": "Reviewers", "members": ["REV"], "is_reviewer": true}
    ])
}

/// One talk in Asia/Kolkata (+05:30, no DST): every id and guid given.
fn tiny() -> Value {
    json!({
        "format": "cfp-dataset", "version": 1,
        "users": users(),
        "events": [{
            "slug": "tiny", "name": {"en": "Tiny Conf"}, "is_public": true,
            "date_from": "2026-06-01", "date_to": "2026-06-01", "timezone": "Asia/Kolkata",
            "primary_color": "#112233",
            "schedule": {"version": "v1", "published": "2026-05-01T10:00:00Z",
                "breaks": [{"id": 601, "room": 1, "start": "2026-06-01T12:00:00+05:30",
                            "end": "2026-06-01T13:00:00+05:30", "description": {"en": "Lunch", "de": "Mittag"}}]},
            "teams": teams(),
            "submission_types": [{"id": 1, "name": {"en": "Talk"}, "default_duration": 30}],
            "tracks": [{"id": 1, "name": {"en": "Main"}, "color": "#AABBCC", "description": {"en": "The main track"}}],
            "rooms": [{"id": 1, "name": {"en": "Hall"}, "guid": "11111111-1111-5111-8111-111111111111",
                       "capacity": 100, "position": 1, "description": {"en": "Ground floor"}}],
            "speakers": [{"user": "SPK1", "biography": "Ada's bio"}],
            "submissions": [
                {"code": "PUB1", "id": 101, "title": "Public Talk", "speakers": ["SPK1"], "submission_type": 1,
                 "track": 1, "state": "confirmed", "created": "2026-03-01T12:00:00Z", "abstract": "Short & sweet",
                 "resources": [{"resource": "https://slides.example/a?x=1&y=2", "description": "Slides"}],
                 "slots": [{"room": 1, "start": "2026-06-01T10:00:00+05:30", "end": "2026-06-01T10:30:00+05:30",
                            "is_visible": true, "id": 501, "guid": "22222222-2222-5222-8222-222222222222"}]}
            ]
        }]
    })
}

async fn get(server: &TestServer, token: Option<&str>, path: &str) -> Reply {
    let client = match token {
        Some(token) => server.token(token),
        None => server.anon(),
    };
    client.get(path).await
}

#[track_caller]
fn assert_ok(reply: &Reply, media_type: &str, context: &str) {
    assert_eq!(reply.status, 200, "{context}: {}", reply.text);
    assert_eq!(reply.header("content-type"), Some(media_type), "{context}");
    let etag = reply
        .header("etag")
        .unwrap_or_else(|| panic!("{context}: no ETag"));
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2,
        "{context}: {etag}"
    );
}

#[track_caller]
fn assert_not_found(reply: &Reply, context: &str) {
    assert_eq!(reply.status, 404, "{context}: {}", reply.text);
    assert_eq!(reply.body, json!({"detail": "Not found."}), "{context}");
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{context}"
    );
}

#[tokio::test]
async fn frab_xml_in_full() {
    let server = TestServer::start(&[tiny()]).await;
    let reply = server.anon().get("/tiny/schedule.xml").await;
    assert_ok(&reply, "text/xml; charset=utf-8", "xml");
    let base = &server.base;
    let expected = format!(
        r##"<?xml version="1.0" encoding="utf-8"?>
<schedule>
  <generator name="confapi" version="{VERSION}"/>
  <version>v1</version>
  <conference>
    <title>Tiny Conf</title>
    <acronym>tiny</acronym>
    <start>2026-06-01</start>
    <end>2026-06-01</end>
    <days>1</days>
    <timeslot_duration>00:05</timeslot_duration>
    <base_url>{base}</base_url>
    <time_zone_name>Asia/Kolkata</time_zone_name>
    <track name="Main" slug="main" color="#aabbcc"/>
  </conference>
  <day index="1" date="2026-06-01" start="2026-06-01T04:00:00+05:30" end="2026-06-02T03:59:00+05:30">
    <room name="Hall" guid="11111111-1111-5111-8111-111111111111">
      <event guid="22222222-2222-5222-8222-222222222222" id="101">
        <room>Hall</room>
        <title>Public Talk</title>
        <subtitle></subtitle>
        <type>Talk</type>
        <date>2026-06-01T10:00:00+05:30</date>
        <start>10:00</start>
        <duration>00:30</duration>
        <abstract>Short &amp; sweet</abstract>
        <slug>tiny-101-public-talk</slug>
        <track>Main</track>
        <persons>
          <person id="11">Ada Speaker</person>
        </persons>
        <language>en</language>
        <recording>
          <license></license>
          <optout>false</optout>
        </recording>
        <links>
          <link href="https://slides.example/a?x=1&amp;y=2">Slides</link>
        </links>
        <attachments></attachments>
        <url>{base}/tiny/talk/PUB1/</url>
        <feedback_url>{base}/tiny/talk/PUB1/feedback/</feedback_url>
      </event>
    </room>
  </day>
</schedule>
"##
    );
    assert_eq!(reply.text, expected);
    // The long path and the slug in another case answer the same bytes.
    let long = server
        .anon()
        .get("/TINY/schedule/export/schedule.xml")
        .await;
    assert_eq!(long.text, expected);
    assert_eq!(long.header("etag"), reply.header("etag"));
}

#[tokio::test]
async fn frab_json_in_full() {
    let server = TestServer::start(&[tiny()]).await;
    let reply = server.anon().get("/tiny/schedule.json").await;
    assert_ok(&reply, "application/json", "json");
    let base = &server.base;
    assert_eq!(
        reply.body,
        json!({
            "$schema": "https://c3voc.de/schedule/schema.json",
            "generator": {"name": "confapi", "version": VERSION},
            "schedule": {
                "url": format!("{base}/tiny/schedule/"),
                "version": "v1",
                "base_url": base,
                "conference": {
                    "acronym": "tiny", "title": "Tiny Conf", "start": "2026-06-01", "end": "2026-06-01",
                    "daysCount": 1, "timeslot_duration": "00:05", "time_zone_name": "Asia/Kolkata",
                    "colors": {"primary": "#112233"},
                    "rooms": [{"name": "Hall", "guid": "11111111-1111-5111-8111-111111111111",
                               "description": "Ground floor", "capacity": 100}],
                    "tracks": [{"name": "Main", "color": "#AABBCC"}],
                    "days": [{
                        "index": 1, "date": "2026-06-01",
                        "day_start": "2026-06-01T04:00:00+05:30", "day_end": "2026-06-02T03:59:00+05:30",
                        "rooms": {"Hall": [{
                            "url": format!("{base}/tiny/talk/PUB1/"),
                            "id": 101, "guid": "22222222-2222-5222-8222-222222222222",
                            "date": "2026-06-01T10:00:00+05:30", "start": "10:00", "logo": null,
                            "duration": "00:30", "room": "Hall", "slug": "tiny-101-public-talk",
                            "title": "Public Talk", "subtitle": "", "track": "Main", "type": "Talk",
                            "language": "en", "abstract": "Short & sweet", "description": "",
                            "recording_license": "", "do_not_record": false,
                            "persons": [{"guid": "effd055c-9b15-577f-a84f-a0eda5dcc0c9", "id": 11, "code": "SPK1",
                                         "public_name": "Ada Speaker", "avatar": "https://img.example/ada.png",
                                         "biography": "Ada's bio"}],
                            "links": [{"url": "https://slides.example/a?x=1&y=2", "title": "Slides"}],
                            "attachments": []
                        }]}
                    }]
                }
            }
        })
    );
    assert!(!reply.text.contains("answers"));
}

#[tokio::test]
async fn xcal_in_full() {
    let server = TestServer::start(&[tiny()]).await;
    let reply = server.anon().get("/tiny/schedule.xcal").await;
    assert_ok(&reply, "text/xml; charset=utf-8", "xcal");
    let base = &server.base;
    let host = base.trim_start_matches("http://");
    assert_eq!(
        reply.text,
        format!(
            r##"<?xml version="1.0" encoding="utf-8"?>
<iCalendar xmlns:pentabarf="http://pentabarf.org" xmlns:xCal="urn:ietf:params:xml:ns:xcal">
  <vcalendar>
    <version>2.0</version>
    <prodid>-//Pentabarf//Schedule//EN</prodid>
    <x-wr-caldesc>Tiny Conf</x-wr-caldesc>
    <x-wr-calname>Tiny Conf</x-wr-calname>
    <vevent>
      <method>PUBLISH</method>
      <uid>PUB1@tiny@{host}</uid>
      <pentabarf:event-id>101</pentabarf:event-id>
      <pentabarf:event-slug>tiny-101-public-talk</pentabarf:event-slug>
      <pentabarf:title>Public Talk</pentabarf:title>
      <pentabarf:subtitle></pentabarf:subtitle>
      <pentabarf:language>en</pentabarf:language>
      <pentabarf:language-code>en</pentabarf:language-code>
      <dtstart>20260601T100000</dtstart>
      <dtend>20260601T103000</dtend>
      <duration>003000</duration>
      <summary>Public Talk</summary>
      <description></description>
      <class>PUBLIC</class>
      <status>CONFIRMED</status>
      <category>Talk</category>
      <url>{base}/tiny/talk/PUB1/</url>
      <location>Hall</location>
      <attendee>Ada Speaker</attendee>
    </vevent>
  </vcalendar>
</iCalendar>
"##
        )
    );
}

#[tokio::test]
async fn ical_in_full() {
    let server = TestServer::start(&[tiny()]).await;
    let base = &server.base;
    let host = base.trim_start_matches("http://");
    let vevent = format!(
        "BEGIN:VEVENT\r\nUID:pretalx-tiny-PUB1@{host}\r\nDTSTART;TZID=Asia/Kolkata:20260601T100000\r\n\
         DTEND;TZID=Asia/Kolkata:20260601T103000\r\nDESCRIPTION:Short & sweet\r\n\
         DTSTAMP:20260501T100000Z\r\nLOCATION:Hall\r\nSUMMARY:Public Talk - Ada Speaker\r\n\
         URL:{base}/tiny/talk/PUB1/\r\nEND:VEVENT\r\n"
    );
    let vtimezone = "BEGIN:VTIMEZONE\r\nTZID:Asia/Kolkata\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n\
                     TZNAME:IST\r\nTZOFFSETFROM:+0530\r\nTZOFFSETTO:+0530\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n";
    for (path, prodid, filename) in [
        (
            "/tiny/schedule.ics",
            format!("-//pretalx//{host}//"),
            "tiny.ics",
        ),
        (
            "/tiny/talk/PUB1.ics",
            format!("-//pretalx//{host}//PUB1"),
            "tiny-PUB1.ics",
        ),
        (
            "/tiny/speaker/SPK1/talks.ics",
            format!("-//pretalx//{host}//tiny//SPK1"),
            "tiny-Ada_Speaker.ics",
        ),
    ] {
        let reply = server.anon().get(path).await;
        assert_ok(&reply, "text/calendar; charset=utf-8", path);
        assert_eq!(
            reply.text,
            format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:{prodid}\r\n{vtimezone}{vevent}END:VCALENDAR\r\n"),
            "{path}"
        );
        assert_eq!(
            reply.header("content-disposition"),
            Some(format!("attachment; filename=\"{filename}\"").as_str()),
            "{path}"
        );
    }
}

#[tokio::test]
async fn widget_in_full() {
    let server = TestServer::start(&[tiny()]).await;
    let reply = server
        .anon()
        .get("/tiny/schedule/widgets/schedule.json")
        .await;
    assert_ok(&reply, "application/json", "widget");
    assert_eq!(
        reply.body,
        json!({
            "talks": [
                {"code": "PUB1", "id": 501, "title": "Public Talk", "abstract": "Short & sweet",
                 "speakers": ["SPK1"], "track": 1, "start": "2026-06-01T10:00:00+05:30",
                 "end": "2026-06-01T10:30:00+05:30", "room": 1, "duration": 30,
                 "updated": "2026-05-01T10:00:00+00:00", "state": null, "do_not_record": false},
                {"id": 601, "title": {"en": "Lunch", "de": "Mittag"}, "start": "2026-06-01T12:00:00+05:30",
                 "end": "2026-06-01T13:00:00+05:30", "room": 1}
            ],
            "version": "v1",
            "timezone": "Asia/Kolkata",
            "event_start": "2026-06-01",
            "event_end": "2026-06-01",
            "tracks": [{"id": 1, "name": {"en": "Main"}, "description": {"en": "The main track"}, "color": "#AABBCC"}],
            "rooms": [{"id": 1, "name": {"en": "Hall"}, "description": {"en": "Ground floor"}}],
            "speakers": [{"code": "SPK1", "name": "Ada Speaker", "avatar": "https://img.example/ada.png",
                          "avatar_thumbnail_default": "https://img.example/ada.png",
                          "avatar_thumbnail_tiny": "https://img.example/ada.png"}]
        })
    );
    // The legacy path and any ?v= answer the current release.
    for path in [
        "/tiny/schedule/widget/v2.json",
        "/tiny/schedule/widgets/schedule.json?v=0.9",
    ] {
        assert_eq!(server.anon().get(path).await.body, reply.body, "{path}");
    }
}

#[tokio::test]
async fn feed_in_full_with_last_modified() {
    let server = TestServer::start(&[tiny()]).await;
    let reply = server.anon().get("/tiny/schedule/feed.xml").await;
    assert_ok(&reply, "application/atom+xml; charset=utf-8", "feed");
    assert_eq!(
        reply.header("last-modified"),
        Some("Fri, 01 May 2026 10:00:00 GMT")
    );
    let base = &server.base;
    assert_eq!(
        reply.text,
        format!(
            r##"<?xml version="1.0" encoding="utf-8"?>
<feed xml:lang="en" xmlns="http://www.w3.org/2005/Atom">
<title>Tiny Conf schedule updates</title>
<link href="{base}/tiny/schedule/" rel="alternate"/>
<link href="{base}/tiny/schedule/feed.xml" rel="self"/>
<id>{base}/tiny/schedule/feed.xml</id>
<updated>2026-05-01T10:00:00+00:00</updated>
<entry>
<title>New Tiny Conf schedule released (v1)</title>
<link href="{base}/tiny/schedule/" rel="alternate"/>
<published>2026-05-01T10:00:00+00:00</published>
<updated>2026-05-01T10:00:00+00:00</updated>
<id>{base}/tiny/schedule/changelog/#v1</id>
<summary type="html">&lt;p&gt;A new Tiny Conf schedule has been released: version v1.&lt;/p&gt;</summary>
</entry>
</feed>
"##
        )
    );
    let client = server.anon();
    let same = client
        .request(
            "GET",
            "/tiny/schedule/feed.xml",
            &[("If-Modified-Since", "Fri, 01 May 2026 10:00:00 GMT")],
        )
        .await;
    assert_eq!(same.status, 304);
    assert_eq!(same.text, "");
    let later = client
        .request(
            "GET",
            "/tiny/schedule/feed.xml",
            &[("If-Modified-Since", "Sat, 02 May 2026 00:00:00 GMT")],
        )
        .await;
    assert_eq!(later.status, 304);
    let older = client
        .request(
            "GET",
            "/tiny/schedule/feed.xml",
            &[("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT")],
        )
        .await;
    assert_eq!(older.status, 200);
    assert_eq!(older.text, reply.text);
    // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
    let both = client
        .request(
            "GET",
            "/tiny/schedule/feed.xml",
            &[
                ("If-None-Match", "\"other\""),
                ("If-Modified-Since", "Sat, 02 May 2026 00:00:00 GMT"),
            ],
        )
        .await;
    assert_eq!(both.status, 200);
}

// ---------------------------------------------------------------------------
// The larger event: the rules.

/// `expo` in Europe/Berlin, 2026-06-01 to 06-02: a talk with XML and iCal
/// special characters, a talk with two slots sharing a guid, a talk at 01:30
/// after the first day, one at 02:30 after the last day, one outside the
/// dates, an invisible slot, a rejected submission, a break, a room without
/// talks, and a track whose name starts with a digit. Some ids and guids
/// are missing (derived).
fn expo() -> Value {
    json!({
        "format": "cfp-dataset", "version": 1,
        "users": users(),
        "events": [{
            "slug": "expo", "name": {"en": "Expo & Friends"}, "is_public": true,
            "date_from": "2026-06-01", "date_to": "2026-06-02", "timezone": "Europe/Berlin",
            "schedule": {"version": "v2", "published": "2026-05-02T08:30:00Z",
                "breaks": [{"room": 1, "start": "2026-06-01T12:00:00+02:00", "end": "2026-06-01T13:00:00+02:00",
                            "description": {"en": "Lunch"}}]},
            "teams": teams(),
            "submission_types": [{"id": 1, "name": {"en": "Talk"}, "default_duration": 30},
                                 {"id": 2, "name": {"en": "Workshop"}, "default_duration": 90}],
            "tracks": [{"id": 1, "name": {"en": "1984 Retro"}, "color": "#AABBCC", "position": 2},
                       {"id": 2, "name": {"en": "Main"}, "position": 1},
                       {"id": 3, "name": {"en": "Main"}, "position": 3}],
            "rooms": [{"id": 1, "name": {"en": "Hall"}, "position": 1},
                      {"id": 2, "name": {"en": "Annex"}, "position": 2},
                      {"id": 3, "name": {"en": "Empty Room"}, "position": 3}],
            "speakers": [{"user": "SPK1", "biography": "Ada's bio"}, {"user": "SPK2"}],
            "submissions": [
                {"code": "ESC1", "id": 102, "title": "Ünïcode & <XML> \"quotes\" \u{7}bell!",
                 "speakers": ["SPK1", "SPK2"], "submission_type": 1, "track": 1, "state": "confirmed",
                 "created": "2026-03-01T12:00:00Z", "duration": 45, "do_not_record": true,
                 "abstract": "Line one\r\nLine two\ttab; semi, comma \\ back",
                 "description": "Long <b>desc</b> \u{1b}[0m",
                 "slots": [{"room": 2, "start": "2026-06-01T11:00:00+02:00", "end": "2026-06-01T11:30:00+02:00",
                            "is_visible": true}]},
                {"code": "TWO1", "id": 103, "title": "Twice", "speakers": ["SPK2"], "submission_type": 2,
                 "track": 2, "state": "confirmed", "created": "2026-03-01T12:00:00Z", "slot_count": 2,
                 "slots": [
                    {"room": 1, "start": "2026-06-02T14:00:00+02:00", "end": "2026-06-02T15:30:00+02:00",
                     "is_visible": true, "id": 504, "guid": "44444444-4444-5444-8444-444444444444"},
                    {"room": 1, "start": "2026-06-01T14:00:00+02:00", "end": "2026-06-01T15:30:00+02:00",
                     "is_visible": true, "id": 503, "guid": "44444444-4444-5444-8444-444444444444"}]},
                {"code": "LATE1", "title": "After Midnight", "speakers": ["SPK1"], "submission_type": 1,
                 "state": "confirmed", "created": "2026-03-01T12:00:00Z",
                 "slots": [{"room": 2, "start": "2026-06-02T01:30:00+02:00", "end": "2026-06-02T02:00:00+02:00",
                            "is_visible": true}]},
                {"code": "NIGHT2", "title": "Night Owls", "speakers": ["SPK1"], "submission_type": 1,
                 "state": "confirmed", "created": "2026-03-01T12:00:00Z",
                 "slots": [{"room": 1, "start": "2026-06-03T02:30:00+02:00", "end": "2026-06-03T03:00:00+02:00",
                            "is_visible": true}]},
                {"code": "OUT1", "title": "Far Away", "speakers": ["SPK1"], "submission_type": 1,
                 "state": "confirmed", "created": "2026-03-01T12:00:00Z",
                 "slots": [{"room": 1, "start": "2026-06-05T10:00:00+02:00", "end": "2026-06-05T10:30:00+02:00",
                            "is_visible": true}]},
                {"code": "HID1", "title": "Hidden Slot", "speakers": ["SPK2"], "submission_type": 1,
                 "state": "accepted", "created": "2026-03-01T12:00:00Z",
                 "slots": [{"room": 1, "start": "2026-06-01T16:00:00+02:00", "end": "2026-06-01T16:30:00+02:00",
                            "is_visible": false}]},
                {"code": "REJ1", "title": "Rejected", "speakers": ["SPK2"], "submission_type": 1,
                 "state": "rejected", "created": "2026-03-01T12:00:00Z"}
            ]
        }]
    })
}

/// `expo` with changes to the event object.
fn expo_with(changes: Value) -> Value {
    let mut doc = expo();
    for (key, value) in changes.as_object().unwrap() {
        doc["events"][0][key] = value.clone();
    }
    doc
}

/// (day date, room name, talk codes with suffix) of the frab JSON.
fn json_days(body: &Value) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for day in body["schedule"]["conference"]["days"].as_array().unwrap() {
        for (room, talks) in day["rooms"].as_object().unwrap() {
            let codes = talks
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["slug"].as_str().unwrap().to_string())
                .collect();
            out.push((
                day["date"].as_str().unwrap().to_string(),
                room.clone(),
                codes,
            ));
        }
    }
    out
}

#[tokio::test]
async fn the_day_rule_around_midnight_and_slots_outside_the_dates() {
    let server = TestServer::start(&[expo()]).await;
    let body = server.anon().ok("/expo/schedule.json").await;
    let days = body["schedule"]["conference"]["days"].as_array().unwrap();
    assert_eq!(days.len(), 2);
    assert_eq!(days[1]["day_start"], "2026-06-02T04:00:00+02:00");
    assert_eq!(days[1]["day_end"], "2026-06-03T03:59:00+02:00");
    // Derived ids (the submissions have none) as the reference oracle derives them.
    let late = "expo-1138518452-after-midnight".to_string();
    let night = "expo-1900187445-night-owls".to_string();
    // A room without talks that day is left out; 01:30 on 06-02 belongs to
    // 06-01, 02:30 on 06-03 to 06-02; 06-05 to none. (json_days reads the
    // rooms of a day in key order; their order in the text is below.)
    assert_eq!(
        json_days(&body),
        vec![
            (
                "2026-06-01".into(),
                "Annex".into(),
                vec!["expo-102-unicode-xml-quotes-bell".to_string(), late]
            ),
            (
                "2026-06-01".into(),
                "Hall".into(),
                vec!["expo-103-0-twice".to_string()]
            ),
            (
                "2026-06-02".into(),
                "Hall".into(),
                vec!["expo-103-1-twice".to_string(), night]
            ),
        ]
    );
    // Rooms by position (Hall before Annex), in JSON and XML alike.
    let text = server.anon().get("/expo/schedule.json").await.text;
    assert!(text.find("\"rooms\":{\"Hall\":[").unwrap() < text.find("\"Annex\":[").unwrap());
    let xml = server.anon().get("/expo/schedule.xml").await.text;
    let day1 = &xml[xml.find("<day index=\"1\"").unwrap()..xml.find("<day index=\"2\"").unwrap()];
    assert!(day1.find("<room name=\"Hall\"").unwrap() < day1.find("<room name=\"Annex\"").unwrap());
    assert!(!xml.contains("Empty Room"));
    // The widget lists every visible slot (OUT1 too) and the break, by start;
    // the invisible slot is in no export.
    let widget = server
        .anon()
        .ok("/expo/schedule/widgets/schedule.json")
        .await;
    let order: Vec<&str> = widget["talks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["code"].as_str().unwrap_or("break"))
        .collect();
    assert_eq!(
        order,
        ["ESC1", "break", "TWO1", "LATE1", "TWO1", "NIGHT2", "OUT1"]
    );
    let ics = server.anon().get("/expo/schedule.ics").await.text;
    assert_eq!(ics.matches("BEGIN:VEVENT").count(), 6);
    assert!(ics.contains("UID:pretalx-expo-OUT1@"));
    assert!(!ics.contains("HID1") && !widget.to_string().contains("HID1"));
}

#[tokio::test]
async fn a_talk_with_two_slots_has_two_entries_with_their_own_ids() {
    let server = TestServer::start(&[expo()]).await;
    let anon = server.anon();
    let body = anon.ok("/expo/schedule.json").await;
    let mut twice = Vec::new();
    for day in body["schedule"]["conference"]["days"].as_array().unwrap() {
        for talks in day["rooms"].as_object().unwrap().values() {
            twice.extend(
                talks
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|t| t["title"] == "Twice")
                    .cloned(),
            );
        }
    }
    assert_eq!(twice.len(), 2);
    // The two slots share a guid in the dataset: each gets a derived one,
    // and an id of its own (values as the reference oracle derives them).
    assert_eq!(twice[0]["guid"], "80f6a002-66a0-555f-97d3-c535769ca943");
    assert_eq!(twice[1]["guid"], "623024e4-e85a-5a32-9105-fb20959989fc");
    assert_eq!(twice[0]["id"], 1797543427);
    assert_eq!(twice[1]["id"], 1318092256);
    assert_eq!(twice[0]["date"], "2026-06-01T14:00:00+02:00");
    assert_eq!(twice[1]["date"], "2026-06-02T14:00:00+02:00");
    assert_eq!(twice[0]["duration"], "01:30");
    let ics = anon.get("/expo/talk/TWO1.ics").await.text;
    assert_eq!(ics.matches("BEGIN:VEVENT").count(), 2);
    assert!(ics.contains("UID:pretalx-expo-TWO1-0@") && ics.contains("UID:pretalx-expo-TWO1-1@"));
    let widget = anon.ok("/expo/schedule/widgets/schedule.json").await;
    let ids: Vec<&Value> = widget["talks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["code"] == "TWO1")
        .map(|t| &t["id"])
        .collect();
    assert_eq!(ids, [&json!(503), &json!(504)]);
    let xcal = anon.get("/expo/schedule.xcal").await.text;
    assert!(xcal.contains("<uid>TWO1-0@expo@") && xcal.contains("<uid>TWO1-1@expo@"));
}

#[tokio::test]
async fn ids_guids_and_slugs_are_unique_and_valid() {
    let server = TestServer::start(&[expo()]).await;
    let body = server.anon().ok("/expo/schedule.json").await;
    let (mut ids, mut guids, mut slugs) = (HashSet::new(), HashSet::new(), HashSet::new());
    let mut n = 0;
    for day in body["schedule"]["conference"]["days"].as_array().unwrap() {
        for talks in day["rooms"].as_object().unwrap().values() {
            for talk in talks.as_array().unwrap() {
                n += 1;
                ids.insert(talk["id"].as_i64().unwrap());
                guids.insert(talk["guid"].as_str().unwrap().to_string());
                let slug = talk["slug"].as_str().unwrap().to_string();
                // schema.json: ^[a-z0-9_-]+[a-z0-9]$
                assert!(
                    slug.chars().all(|c| c.is_ascii_lowercase()
                        || c.is_ascii_digit()
                        || c == '-'
                        || c == '_')
                        && !slug.ends_with('-'),
                    "{slug}"
                );
                slugs.insert(slug);
            }
        }
    }
    assert_eq!((ids.len(), guids.len(), slugs.len()), (n, n, n));
    for guid in &guids {
        assert_eq!(guid.len(), 36, "{guid}");
    }
    let rooms: Vec<&str> = body["schedule"]["conference"]["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["guid"].as_str().unwrap())
        .collect();
    assert_eq!(rooms.iter().collect::<HashSet<_>>().len(), 3);
    // Track slugs: [a-z][a-z0-9-]+ and unique, also for a name starting
    // with a digit and for two tracks of one name; colour lower-cased,
    // left out when empty.
    let xml = server.anon().get("/expo/schedule.xml").await.text;
    assert!(xml.contains(r#"<track name="Main" slug="main"/>"#), "{xml}");
    assert!(xml.contains(r##"<track name="1984 Retro" slug="track-1984-retro" color="#aabbcc"/>"##));
    assert!(xml.contains(r#"<track name="Main" slug="main-3"/>"#));
    // Ids and guids are stable: a second render gives the same bytes.
    let again = server.anon().get("/expo/schedule.xml").await.text;
    assert_eq!(xml, again);
}

#[tokio::test]
async fn special_characters_are_escaped_in_every_format() {
    let server = TestServer::start(&[expo()]).await;
    let anon = server.anon();
    let xml = anon.get("/expo/schedule.xml").await.text;
    assert!(xml.contains("<title>Ünïcode &amp; &lt;XML&gt; &quot;quotes&quot; bell!</title>"));
    assert!(xml.contains("<abstract>Line one\r\nLine two\ttab; semi, comma \\ back</abstract>"));
    assert!(xml.contains("<description>Long &lt;b&gt;desc&lt;/b&gt; [0m</description>"));
    assert!(xml.contains("<person id=\"12\">Bob &quot;B&quot; &lt;Talker&gt; &amp; Co</person>"));
    assert!(xml.contains("<optout>true</optout>"));
    assert!(!xml.contains('\u{7}') && !xml.contains('\u{1b}'));
    // The JSON keeps the text as it is (JSON can hold it).
    let json = anon.ok("/expo/schedule.json").await;
    let day = &json["schedule"]["conference"]["days"][0]["rooms"]["Annex"][0];
    assert_eq!(day["title"], "Ünïcode & <XML> \"quotes\" \u{7}bell!");
    assert_eq!(day["slug"], "expo-102-unicode-xml-quotes-bell");
    // The slot's length, not the talk's own duration (45).
    assert_eq!(day["duration"], "00:30");
    let ics = anon.get("/expo/talk/ESC1.ics").await.text;
    let unfolded = ics.replace("\r\n ", "");
    assert!(
        unfolded.contains("DESCRIPTION:Line one\\nLine two\ttab\\; semi\\, comma \\\\ back\r\n"),
        "{unfolded}"
    );
    assert!(unfolded.contains(
        "SUMMARY:Ünïcode & <XML> \"quotes\" \u{7}bell! - Ada Speaker\\, Bob \"B\" <Talker> & Co\r\n"
    ));
    for line in ics.split("\r\n") {
        assert!(line.len() <= 75, "{line}");
    }
    let feed = anon.get("/expo/schedule/feed.xml").await.text;
    assert!(feed.contains("<title>Expo &amp; Friends schedule updates</title>"));
    let widget = anon.ok("/expo/schedule/widgets/schedule.json").await;
    let esc = widget["talks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["code"] == "ESC1")
        .unwrap();
    // The widget's duration is the talk's own length.
    assert_eq!(esc["duration"], 45);
    assert_eq!(esc["do_not_record"], true);
}

/// Every export of `expo` and what each caller gets.
async fn statuses(server: &TestServer, token: Option<&str>) -> Vec<u16> {
    let mut out = Vec::new();
    for path in WHOLE {
        out.push(get(server, token, &format!("/expo/{path}")).await.status);
    }
    for code in ["ESC1", "HID1", "REJ1"] {
        out.push(
            get(server, token, &format!("/expo/talk/{code}.ics"))
                .await
                .status,
        );
    }
    out.push(
        get(server, token, "/expo/speaker/SPK1/talks.ics")
            .await
            .status,
    );
    out
}

#[tokio::test]
async fn every_export_for_every_caller() {
    let server = TestServer::start(&[expo()]).await;
    let public = [vec![200; 11], vec![200, 404, 404, 200]].concat();
    let organiser = vec![200; 15];
    for (token, expected) in [
        (None, &public),
        (Some("rev-token"), &public),
        (Some("nobody-token"), &public),
        (Some("orga-token"), &organiser),
        (Some("admin-token"), &organiser),
    ] {
        assert_eq!(&statuses(&server, token).await, expected, "{token:?}");
    }
    // Reviewers and other users get exactly what the public gets.
    for path in WHOLE {
        let path = format!("/expo/{path}");
        let anon = server.anon().get(&path).await;
        for token in ["rev-token", "nobody-token"] {
            let other = server.token(token).get(&path).await;
            assert_eq!(other.text, anon.text, "{token} {path}");
            assert_eq!(other.header("access-control-allow-origin"), Some("*"));
            assert_eq!(other.header("cache-control"), None, "{token} {path}");
        }
        let orga = server.token("orga-token").get(&path).await;
        assert_eq!(orga.header("cache-control"), Some("private"), "{path}");
        assert!(orga.header("vary").unwrap().contains("Authorization"));
        assert_eq!(anon.header("cache-control"), None, "{path}");
    }
    // An organiser's calendar of a submission without a visible slot is empty.
    let hidden = server.token("orga-token").get("/expo/talk/HID1.ics").await;
    assert!(
        !hidden.text.contains("BEGIN:VEVENT") && hidden.text.starts_with("BEGIN:VCALENDAR\r\n")
    );
    // A bad token is 401 as in the API.
    let bad = server
        .token("no-such-token")
        .get("/expo/schedule.xml")
        .await;
    assert_eq!(bad.status, 401);
    assert_eq!(bad.header("www-authenticate"), Some("Token"));
}

#[tokio::test]
async fn not_public_hidden_or_unreleased_schedules_are_for_organisers_only() {
    let cases = [
        ("not public", json!({"is_public": false})),
        ("schedule hidden", json!({"show_schedule": false})),
    ];
    for (name, change) in cases {
        let server = TestServer::start(&[expo_with(change)]).await;
        let organiser = server.token("orga-token");
        for path in WHOLE.iter().map(|p| format!("/expo/{p}")).chain([
            "/expo/talk/ESC1.ics".to_string(),
            "/expo/speaker/SPK1/talks.ics".to_string(),
        ]) {
            for token in [None, Some("rev-token"), Some("nobody-token")] {
                assert_not_found(
                    &get(&server, token, &path).await,
                    &format!("{name} {token:?} {path}"),
                );
            }
            assert_eq!(organiser.get(&path).await.status, 200, "{name} {path}");
        }
    }
    // No release: organisers get the empty schedule (day frames, no talks).
    let mut doc = expo_with(json!({"schedule": null}));
    for sub in doc["events"][0]["submissions"].as_array_mut().unwrap() {
        sub["slots"] = json!([]);
    }
    let server = TestServer::start(&[doc]).await;
    for path in WHOLE {
        assert_not_found(&server.anon().get(&format!("/expo/{path}")).await, path);
    }
    let body = server.token("orga-token").ok("/expo/schedule.json").await;
    assert_eq!(body["schedule"]["version"], "");
    assert_eq!(body["schedule"]["base_url"], server.base.as_str());
    assert_eq!(json_days(&body), vec![]);
    assert_eq!(
        body["schedule"]["conference"]["days"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let xml = server
        .token("orga-token")
        .get("/expo/schedule.xml")
        .await
        .text;
    assert!(xml.contains("<version></version>"));
    assert_eq!(xml.matches("<day ").count(), 2);
    let feed = server
        .token("orga-token")
        .get("/expo/schedule/feed.xml")
        .await;
    assert!(!feed.text.contains("<entry>"));
    assert_eq!(feed.header("last-modified"), None);
}

#[tokio::test]
async fn unknown_events_codes_and_paths_are_404_and_other_methods_405() {
    let server = TestServer::start(&[expo()]).await;
    for token in [None, Some("orga-token")] {
        for path in [
            "/nope/schedule.xml",
            "/nope/talk/ESC1.ics",
            "/expo/talk/NOPE.ics",
            "/expo/talk/ESC1",
            "/expo/speaker/NOPE/talks.ics",
            "/expo/speaker/ORGA/talks.ics",
            "/expo/schedule.yaml",
            "/api/schedule.xml",
        ] {
            assert_not_found(
                &get(&server, token, path).await,
                &format!("{token:?} {path}"),
            );
        }
    }
    // Codes in another letter case are the same talk and speaker.
    let lower = server.anon().get("/expo/talk/esc1.ics").await;
    assert_eq!(lower.status, 200);
    assert!(lower.text.contains("UID:pretalx-expo-ESC1@"));
    assert_eq!(
        server
            .anon()
            .get("/expo/speaker/spk1/talks.ics")
            .await
            .status,
        200
    );
    let post = server
        .anon()
        .request("POST", "/expo/schedule.xml", &[])
        .await;
    assert_eq!(post.status, 405);
    assert_eq!(post.body, json!({"detail": "Method \"POST\" not allowed."}));
}

#[tokio::test]
async fn conditional_requests_and_head() {
    let server = TestServer::start(&[expo()]).await;
    for token in [None, Some("orga-token")] {
        let client = match token {
            Some(t) => server.token(t),
            None => server.anon(),
        };
        for path in WHOLE
            .iter()
            .map(|p| format!("/expo/{p}"))
            .chain(["/expo/talk/ESC1.ics".to_string()])
        {
            let first = client.get(&path).await;
            assert_eq!(first.status, 200, "{path}");
            let etag = first.header("etag").unwrap().to_string();
            for value in [
                etag.clone(),
                format!("W/{etag}"),
                format!("\"nomatch\", {etag}"),
                format!("W/\"x\",W/{etag}"),
                "*".to_string(),
            ] {
                let reply = client
                    .request("GET", &path, &[("If-None-Match", &value)])
                    .await;
                assert_eq!(reply.status, 304, "{token:?} {path} {value}");
                assert_eq!(reply.text, "", "{path}");
                assert_eq!(reply.header("etag"), Some(etag.as_str()), "{path}");
            }
            for value in ["\"nomatch\"", etag.trim_matches('"')] {
                let reply = client
                    .request("GET", &path, &[("If-None-Match", value)])
                    .await;
                assert_eq!(reply.status, 200, "{path} {value}");
                assert_eq!(reply.text, first.text);
            }
            let head = client.request("HEAD", &path, &[]).await;
            assert_eq!(head.status, 200);
            assert_eq!(head.text, "");
            assert_eq!(head.header("etag"), Some(etag.as_str()));
            assert_eq!(head.header("content-type"), first.header("content-type"));
            assert_eq!(
                head.header("content-disposition"),
                first.header("content-disposition")
            );
            let head304 = client
                .request("HEAD", &path, &[("If-None-Match", &etag)])
                .await;
            assert_eq!(head304.status, 304);
        }
    }
}

#[tokio::test]
async fn organisers_answers_are_never_served_to_anyone_else() {
    // Organisers ask first, so their answers are in the response cache.
    let server = TestServer::start(&[expo_with(json!({"show_schedule": false}))]).await;
    for path in WHOLE
        .iter()
        .map(|p| format!("/expo/{p}"))
        .chain(["/expo/talk/ESC1.ics".to_string()])
    {
        let orga = server.token("orga-token").get(&path).await;
        assert_eq!(orga.status, 200, "{path}");
        let etag = orga.header("etag").unwrap();
        for token in [None, Some("rev-token"), Some("nobody-token")] {
            assert_not_found(
                &get(&server, token, &path).await,
                &format!("{token:?} {path}"),
            );
            let client = match token {
                Some(t) => server.token(t),
                None => server.anon(),
            };
            let conditional = client
                .request("GET", &path, &[("If-None-Match", etag)])
                .await;
            assert_not_found(&conditional, &format!("{token:?} {path} conditional"));
        }
    }
}

#[tokio::test]
async fn compressed_exports_decode_to_the_same_bytes() {
    let server = TestServer::start(&[expo()]).await;
    let plain = server.anon().get("/expo/schedule.xml").await;
    let reply = http_client_builder()
        .no_gzip()
        .build()
        .unwrap()
        .get(format!("{}/expo/schedule.xml", server.base))
        .header("Accept-Encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.headers()["content-encoding"], "gzip");
    assert_ne!(
        reply.headers()["etag"].to_str().unwrap(),
        plain.header("etag").unwrap()
    );
    let bytes = reply.bytes().await.unwrap();
    let mut decoded = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut decoded)
        .unwrap();
    assert_eq!(decoded, plain.text);
}

#[tokio::test]
async fn a_new_import_changes_the_exports_and_their_etags() {
    let server = TestServer::start(&[expo()]).await;
    let before = server.anon().get("/expo/schedule.json").await;
    let mut doc = expo();
    doc["events"][0]["schedule"]["version"] = json!("v3");
    server.import(&doc).await;
    let etag = before.header("etag").unwrap();
    let after = server
        .anon()
        .request("GET", "/expo/schedule.json", &[("If-None-Match", etag)])
        .await;
    assert_eq!(after.status, 200);
    assert_eq!(after.body["schedule"]["version"], "v3");
    // Hiding the schedule takes it away from the public at once.
    server
        .import(&expo_with(json!({"show_schedule": false})))
        .await;
    assert_not_found(&server.anon().get("/expo/schedule.json").await, "hidden");
}
