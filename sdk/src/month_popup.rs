//! A month's calendar in a popup, as the Date and Time widgets open it:
//! the month and year between buttons to the previous and next month, the
//! weekdays from the locale's first, and the weeks with their ISO numbers,
//! today selected and the neighbouring months' days muted. Scrolling over
//! it changes the month. A week that starts on another day than Monday
//! spans two ISO weeks: its row is numbered by its Monday's, as most of
//! its days are.

use crate::popup::{button, cell, label};
use crate::{Emphasis, Input, Inputs, Popup, PopupInput, ScrollDirection, calendar, clock};

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];

/// A day of the proleptic Gregorian calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day {
    pub year: i32,
    /// 1..=12
    pub month: u8,
    /// 1..=31
    pub day: u8,
}

impl Day {
    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    fn days_since_epoch(self) -> i64 {
        let year = i64::from(self.year) - i64::from(self.month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let month = i64::from(self.month);
        let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The day `days` since 1970-01-01 (`civil_from_days`).
    fn from_days_since_epoch(days: i64) -> Day {
        let days = days + 719_468;
        let era = days.div_euclid(146_097);
        let day_of_era = days - era * 146_097;
        let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let month_index = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u8;
        let month = if month_index < 10 { month_index + 3 } else { month_index - 9 } as u8;
        Day { year: (year_of_era + era * 400 + i64::from(month <= 2)) as i32, month, day }
    }

    /// 0 = Monday .. 6 = Sunday.
    pub fn weekday(self) -> u8 {
        // 1970-01-01 was a Thursday.
        (self.days_since_epoch() + 3).rem_euclid(7) as u8
    }

    fn plus(self, days: i64) -> Day {
        Day::from_days_since_epoch(self.days_since_epoch() + days)
    }

    /// Its ISO 8601 week number: that of the week's Thursday in its year.
    pub fn iso_week(self) -> u8 {
        let thursday = self.plus(3 - i64::from(self.weekday()));
        let first = Day { year: thursday.year, month: 1, day: 1 };
        ((thursday.days_since_epoch() - first.days_since_epoch()) / 7 + 1) as u8
    }
}

/// A month shown in the calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    pub year: i32,
    /// 1..=12
    pub month: u8,
}

impl Month {
    pub fn of(day: Day) -> Month {
        Month { year: day.year, month: day.month }
    }

    /// The month `months` later (earlier when negative).
    pub fn plus(self, months: i32) -> Month {
        let index = self.year * 12 + i32::from(self.month) - 1 + months;
        Month { year: index.div_euclid(12), month: (index.rem_euclid(12) + 1) as u8 }
    }

    fn first(self) -> Day {
        Day { year: self.year, month: self.month, day: 1 }
    }
}

/// The calendar of a widget: closed, or open at a month.
#[derive(Debug, Default)]
pub struct Calendar {
    shown: Option<Month>,
}

impl Calendar {
    /// Opens it at `today`'s month, or closes it when it is open.
    pub fn toggle(&mut self, today: Day) {
        self.shown = match self.shown {
            Some(_) => None,
            None => Some(Month::of(today)),
        };
    }

    pub fn close(&mut self) {
        self.shown = None;
    }

    pub fn shown(&self) -> Option<Month> {
        self.shown
    }

    /// Input on the widget's item: a secondary click opens the calendar at
    /// the month of today in `timezone` (the local zone when none), or
    /// closes it.
    pub fn on_item_input(&mut self, input: Input, timezone: Option<&str>) {
        if let (Input::SecondaryClick, Some(today)) = (input, today(timezone)) {
            self.toggle(today);
        }
    }

    /// [`Calendar::popup`] for today in `timezone`, its weeks starting on
    /// the locale's first day.
    pub fn popup_today(&self, item_key: &str, timezone: Option<&str>) -> Option<Popup> {
        self.shown?;
        self.popup(item_key, today(timezone)?, calendar::first_weekday())
    }

    /// Input on one of its cells: the buttons and scrolling change the month.
    pub fn on_input(&mut self, cell_key: &str, input: PopupInput) {
        let Some(shown) = self.shown else { return };
        let step = match (cell_key, input) {
            ("previous", PopupInput::Input(Input::PrimaryClick)) => -1,
            ("next", PopupInput::Input(Input::PrimaryClick)) => 1,
            (_, PopupInput::Input(Input::Scroll(ScrollDirection::Up | ScrollDirection::Left))) => -1,
            (_, PopupInput::Input(Input::Scroll(ScrollDirection::Down | ScrollDirection::Right))) => 1,
            _ => return,
        };
        self.shown = Some(shown.plus(step));
    }

    /// The popup beside item `item_key` when it is open: its month, weeks
    /// starting on `first_weekday` (0 = Monday .. 6 = Sunday), `today`
    /// selected.
    pub fn popup(&self, item_key: &str, today: Day, first_weekday: u8) -> Option<Popup> {
        let shown = self.shown?;
        let title = format!("{} {}", MONTHS[usize::from(shown.month) - 1], shown.year);
        let header =
            [button("previous").text("‹"), cell("month").text(title).takes(Inputs::SCROLL), button("next").text("›")];
        let first_weekday = first_weekday % 7;
        let weekdays = (0..7).map(|offset| WEEKDAYS[usize::from((first_weekday + offset) % 7)]);
        let names = std::iter::once(label("Wk").emphasis(Emphasis::Muted)).chain(weekdays.map(label));
        let lead = i64::from((shown.first().weekday() + 7 - first_weekday) % 7);
        let start = shown.first().plus(-lead);
        let weeks = (0..6i64).map(|week| {
            let days: Vec<Day> = (0..7).map(|offset| start.plus(week * 7 + offset)).collect();
            let monday = days.iter().find(|day| day.weekday() == 0).copied().unwrap_or(days[0]);
            let number = label(monday.iso_week().to_string()).emphasis(Emphasis::Muted);
            let cells = days.into_iter().enumerate().map(move |(offset, day)| {
                let emphasis = match (day == today, Month::of(day) == shown) {
                    (true, _) => Emphasis::Selected,
                    (false, true) => Emphasis::Normal,
                    (false, false) => Emphasis::Muted,
                };
                cell(format!("day-{}", week * 7 + offset as i64))
                    .text(day.day.to_string())
                    .emphasis(emphasis)
                    .takes(Inputs::SCROLL)
            });
            std::iter::once(number).chain(cells).collect::<Vec<_>>()
        });
        let weeks: Vec<Vec<_>> = weeks.collect();
        Some(Popup::beside(item_key).grid([header]).separator().grid(std::iter::once(names.collect()).chain(weeks)))
    }
}

/// Today in `timezone`, or the local zone; none when the zone is unknown.
fn today(timezone: Option<&str>) -> Option<Day> {
    let civil = clock::civil(clock::now(), timezone).ok()?;
    Some(Day { year: civil.year, month: civil.month, day: civil.day })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Block, Content, Piece};

    fn day(year: i32, month: u8, day: u8) -> Day {
        Day { year, month, day }
    }

    fn texts(row: &[crate::Cell]) -> Vec<String> {
        row.iter()
            .map(|cell| match &cell.content {
                Content::Label(pieces) | Content::Button(pieces) => pieces
                    .iter()
                    .filter_map(|piece| match piece {
                        Piece::Text(text) => Some(text.as_str()),
                        _ => None,
                    })
                    .collect(),
                Content::Slider(value) => value.to_string(),
            })
            .collect()
    }

    #[test]
    fn days_weekdays_and_iso_weeks_are_right() {
        for days in [-800_000, -1, 0, 1, 19_000, 20_415, 2_000_000] {
            assert_eq!(Day::from_days_since_epoch(days).days_since_epoch(), days);
        }
        assert_eq!(day(2026, 11, 25).weekday(), 2, "a Wednesday");
        assert_eq!(day(2000, 2, 29).plus(1), day(2000, 3, 1));
        assert_eq!(day(2026, 11, 25).iso_week(), 48);
        assert_eq!(day(2027, 1, 1).iso_week(), 53, "a Friday in 2026's last week");
        assert_eq!(day(2024, 12, 30).iso_week(), 1, "a Monday in 2025's first week");
        assert_eq!(Month { year: 2026, month: 1 }.plus(-1), Month { year: 2025, month: 12 });
        assert_eq!(Month { year: 2026, month: 12 }.plus(14), Month { year: 2028, month: 2 });
    }

    #[test]
    fn november_2026_from_monday_with_today_selected() {
        let today = day(2026, 11, 25);
        let mut calendar = Calendar::default();
        assert_eq!(calendar.popup("date", today, 0), None, "closed until opened");
        calendar.toggle(today);
        let popup = calendar.popup("date", today, 0).unwrap();
        assert_eq!(popup.item_key, "date");
        let [Block::Grid(header), Block::Separator, Block::Grid(weeks)] = popup.blocks.as_slice() else {
            panic!("{popup:?}")
        };
        assert_eq!(texts(&header[0]), ["‹", "November 2026", "›"]);
        assert_eq!(texts(&weeks[0]), ["Wk", "Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]);
        assert_eq!(texts(&weeks[1]), ["44", "26", "27", "28", "29", "30", "31", "1"]);
        assert_eq!(texts(&weeks[5]), ["48", "23", "24", "25", "26", "27", "28", "29"]);
        assert_eq!(weeks[1][1].emphasis, Emphasis::Muted, "October's days are muted");
        assert_eq!(weeks[5][3].emphasis, Emphasis::Selected, "today");
        assert_eq!(weeks[5][2].emphasis, Emphasis::Normal);
    }

    #[test]
    fn a_sunday_first_locale_and_the_month_moved_by_buttons_and_scrolling() {
        let today = day(2026, 11, 25);
        let mut calendar = Calendar::default();
        calendar.toggle(today);
        let rows = |calendar: &Calendar| match &calendar.popup("date", today, 6).unwrap().blocks[2] {
            Block::Grid(rows) => rows.iter().map(|row| texts(row)).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(rows(&calendar)[0], ["Wk", "Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]);
        assert_eq!(rows(&calendar)[1], ["45", "1", "2", "3", "4", "5", "6", "7"]);
        calendar.on_input("next", PopupInput::Input(Input::PrimaryClick));
        calendar.on_input("day-3", PopupInput::Input(Input::Scroll(ScrollDirection::Down)));
        assert_eq!(calendar.shown(), Some(Month { year: 2027, month: 1 }));
        calendar.on_input("previous", PopupInput::Input(Input::PrimaryClick));
        calendar.on_input("month", PopupInput::Input(Input::Scroll(ScrollDirection::Up)));
        assert_eq!(calendar.shown(), Some(Month { year: 2026, month: 11 }));
        calendar.toggle(today);
        assert_eq!(calendar.popup("date", today, 6), None, "a second toggle closes it");
    }
}
