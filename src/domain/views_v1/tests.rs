//! Unit tests of v1's number and text helpers.

mod round_tenth_tests {
    use super::super::round_tenth;

    #[test]
    fn rounds_as_formatting_to_one_decimal_does() {
        let exact = |v: f64| -> f64 { format!("{v:.1}").parse().unwrap() };
        let mut values = vec![
            0.05, 0.15, 0.25, 2.25, 2.35, -0.04, -2.25, 1e16, 3.0, 0.0, -0.05, -0.15, 0.45, 1.05,
            4.95, 9.95, 12.25, -12.35, 0.35, 0.65, 0.75, 0.85, 0.95,
        ];
        // Every tenth and every tie near them, and the doubles beside each.
        for k in -2000..2000 {
            for base in [f64::from(k) / 10.0, (f64::from(k) + 0.5) / 10.0] {
                values.extend([base, base.next_up(), base.next_down()]);
            }
        }
        // Doubles of every magnitude from a thousandth to a million, by a
        // fixed pseudo-random walk.
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..100_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let mantissa = (state >> 11) as f64 / (1u64 << 53) as f64;
            let sign = if state & 1 == 0 { 1.0 } else { -1.0 };
            values.push(sign * mantissa * 10f64.powi((state >> 3 & 7) as i32 - 3));
        }
        // Means of up to 12 scores of 0..=10 in steps of a half.
        for count in 1..=12 {
            for sum in 0..=(20 * count) {
                values.push(f64::from(sum) / 2.0 / f64::from(count));
            }
        }
        for value in values {
            assert_eq!(
                round_tenth(value).to_bits(),
                exact(value).to_bits(),
                "{value}"
            );
        }
    }
}

mod anonymised_data_tests {
    use super::super::anonymised_data;
    use crate::model::Anonymised;

    #[test]
    fn is_the_json_of_pretalxs_object_with_its_keys_sorted() {
        let with = |title: &str, abstract_: &str, description: &str| {
            let texts = Anonymised {
                title: title.into(),
                abstract_: abstract_.into(),
                description: description.into(),
            };
            anonymised_data(Some(&texts)).map(|raw| raw.get().to_owned())
        };
        assert!(anonymised_data(None).is_none());
        assert_eq!(with("", "", ""), None);
        assert_eq!(
            with("T", "", "").unwrap(),
            r#"{"_anonymised":true,"title":"T"}"#
        );
        assert_eq!(
            with("A \"quoted\"\ntitle", "Ab\\stract", "Déscription\u{1}").unwrap(),
            r#"{"_anonymised":true,"abstract":"Ab\\stract","description":"Déscription\u0001","title":"A \"quoted\"\ntitle"}"#
        );
    }
}
