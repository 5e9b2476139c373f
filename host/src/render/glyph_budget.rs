//! How many glyph textures a painter may hold. femtovg keeps every glyph it
//! has rasterised (each font, size and tenth-of-a-pixel offset) in 512×512
//! RGBA textures (1 MiB each) that it never empties, so a bar that shows
//! window titles in many scripts for days would hold ever more of them. A
//! painter past its budget starts over on a fresh canvas, and the glyphs it
//! still shows are rasterised again. When the glyphs of a few frames
//! already fill the budget (the bar shows more text than one texture holds),
//! starting over would only repeat itself: the budget doubles instead, up to
//! a ceiling.

/// Glyph textures a painter starts with the right to hold.
const FIRST_BUDGET: usize = 1;
/// The most glyph textures a painter may ever hold (16 MiB).
const MOST_TEXTURES: usize = 16;
/// A budget filled in fewer frames than this is too small for what the
/// bar shows, not used up by what it showed over time.
const CROWDED_FRAMES: u32 = 60;

#[derive(Debug)]
pub struct GlyphBudget {
    textures: usize,
    frames_since_start: u32,
}

impl Default for GlyphBudget {
    fn default() -> GlyphBudget {
        GlyphBudget { textures: FIRST_BUDGET, frames_since_start: 0 }
    }
}

impl GlyphBudget {
    /// How many glyph textures may be held now.
    pub fn textures(&self) -> usize {
        self.textures
    }

    /// Whether `held` glyph textures are more than the budget allows.
    pub fn exceeded_by(&self, held: usize) -> bool {
        held > self.textures
    }

    pub fn frame_painted(&mut self) {
        self.frames_since_start = self.frames_since_start.saturating_add(1);
    }

    /// The painter started over on a fresh canvas.
    pub fn started_over(&mut self) {
        if self.frames_since_start < CROWDED_FRAMES {
            self.textures = (self.textures * 2).min(MOST_TEXTURES);
        }
        self.frames_since_start = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after_frames(budget: &mut GlyphBudget, frames: u32) {
        (0..frames).for_each(|_| budget.frame_painted());
    }

    #[test]
    fn a_budget_used_up_over_time_stays_as_it_is() {
        let mut budget = GlyphBudget::default();
        assert!(!budget.exceeded_by(1));
        assert!(budget.exceeded_by(2));
        for _ in 0..10 {
            after_frames(&mut budget, CROWDED_FRAMES);
            budget.started_over();
            assert_eq!(budget.textures(), FIRST_BUDGET);
        }
    }

    #[test]
    fn a_budget_filled_by_a_few_frames_doubles_up_to_the_ceiling() {
        let mut budget = GlyphBudget::default();
        after_frames(&mut budget, 3);
        budget.started_over();
        assert_eq!(budget.textures(), 2);
        assert!(!budget.exceeded_by(2));
        for _ in 0..10 {
            budget.started_over();
        }
        assert_eq!(budget.textures(), MOST_TEXTURES);
        assert!(budget.exceeded_by(MOST_TEXTURES + 1));
    }

    #[test]
    fn a_doubled_budget_is_kept_once_it_suffices() {
        let mut budget = GlyphBudget::default();
        budget.started_over();
        after_frames(&mut budget, CROWDED_FRAMES * 100);
        budget.started_over();
        assert_eq!(budget.textures(), 2);
    }
}
