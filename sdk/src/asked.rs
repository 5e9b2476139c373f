//! Levels a widget asked of something (a volume of an output, a backlight
//! of a panel) that the host carries out and reports back later: scroll
//! ticks that come faster than the answers each count, since a tick goes
//! on from the level the last one asked for, and the readings that confirm
//! them one by one do not undo the ones still on their way.

/// The levels asked of one thing, by name, and not yet read back, oldest first.
#[derive(Debug, Default)]
pub struct Asked {
    name: String,
    /// Its level when the oldest was asked.
    from: u32,
    levels: Vec<u32>,
}

/// Levels asked and not yet answered, at most: a host that never answers
/// leaves the widget going on from what it asked.
const KEPT: usize = 16;

impl Asked {
    /// The level `name`, read as `reading`, is on its way to.
    pub fn target(&self, name: &str, reading: u32) -> u32 {
        match self.levels.last() {
            Some(&level) if self.name == name => level,
            _ => reading,
        }
    }

    /// `level` was asked of `name`, read as `reading`.
    pub fn note(&mut self, name: &str, reading: u32, level: u32) {
        if self.name != name || self.levels.is_empty() {
            *self = Asked { name: name.to_owned(), from: reading, levels: Vec::new() };
        }
        if self.levels.len() == KEPT {
            self.levels.remove(0);
        }
        self.levels.push(level);
    }

    /// Forgets what a `reading` (a name and its level) answers: the asks up
    /// to the one it shows; all of them when it shows none (someone else
    /// changed it, or the host put it elsewhere), or it is of another
    /// thing, or there is none.
    pub fn settle(&mut self, reading: Option<(&str, u32)>) {
        let Some((_, level)) = reading.filter(|(name, _)| *name == self.name) else {
            self.levels.clear();
            return;
        };
        match self.levels.iter().position(|&asked| asked == level) {
            Some(answered) => {
                self.levels.drain(..=answered);
                self.from = level;
            }
            None if level != self.from => self.levels.clear(),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_go_on_from_the_newest_ask_until_readings_catch_up() {
        let mut asked = Asked::default();
        assert_eq!(asked.target("speakers", 40), 40);
        asked.note("speakers", 40, 45);
        asked.note("speakers", 40, 50);
        assert_eq!(asked.target("speakers", 40), 50, "the second tick went on from the first");
        asked.settle(Some(("speakers", 45)));
        assert_eq!(asked.target("speakers", 45), 50, "the first answered, the second still on its way");
        asked.settle(Some(("speakers", 50)));
        assert_eq!(asked.target("speakers", 50), 50);
        assert_eq!(asked.target("headphones", 70), 70, "another thing's reading is its own");
    }

    #[test]
    fn a_reading_no_ask_explains_forgets_them_all() {
        let mut asked = Asked::default();
        asked.note("panel", 40, 45);
        asked.settle(Some(("panel", 40)));
        assert_eq!(asked.target("panel", 40), 45, "not answered yet: the level is what it was");
        asked.settle(Some(("panel", 10)));
        assert_eq!(asked.target("panel", 10), 10, "someone else set it");
        asked.note("panel", 10, 15);
        asked.settle(None);
        assert_eq!(asked.target("panel", 10), 10, "no reading: nothing is on its way");
    }
}
