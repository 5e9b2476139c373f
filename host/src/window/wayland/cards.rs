//! The desktop's notifications and the on-screen display on Wayland: a
//! layer surface of their own each, on the overlay layer of the bar's
//! output (namespaces `obi-notification` and `obi-osd`, no keyboard; the
//! display takes no pointer either), anchored at the configured place with
//! margins that stack them, newest nearest it; on the focused output, the
//! compositor chooses (layer-shell has it take the one the user last
//! interacted with). Their exclusive zone is
//! none, so the compositor keeps them clear of the bar's. Each is painted
//! with the bar's GL once the compositor configured it; one whose size and
//! place did not change is painted again where it is.

use super::scale::{Scale, Viewport};
use super::tooltip::surface_for;
use super::{LayerBar, Panel};
use crate::bar::{CardMonitor, CardPlace, Member};
use crate::config::model::ScreenPlace;
use crate::render::{PopupLayout, Style};
use crate::window::gl::GlBar;
use smithay_client_toolkit::compositor::Region;
use smithay_client_toolkit::reexports::client::protocol::{wl_output, wl_surface};
use smithay_client_toolkit::shell::WaylandSurface;
use smithay_client_toolkit::shell::wlr_layer::{Anchor, KeyboardInteractivity, Layer, LayerSurface};

/// Between two cards, and between them and the output's edge or the bar,
/// in logical pixels.
const GAP: i32 = 10;

/// The cards stacked in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stack {
    Notices,
    Osd,
}

pub(super) struct CardSurface {
    // Dropped before the layer surface it draws into.
    gl_surface: Option<glutin::surface::Surface<glutin::surface::WindowSurface>>,
    viewport: Option<Viewport>,
    layer: LayerSurface,
    layout: PopupLayout,
    /// Where it was put: its place, on the bar's output or the one the
    /// compositor chose, and how far along from it.
    place: ScreenPlace,
    on_bars_output: bool,
    along: i32,
    scale: Scale,
    /// The compositor configured it: it may be drawn into.
    configured: bool,
}

impl CardSurface {
    pub(super) fn is_on(&self, surface: &wl_surface::WlSurface) -> bool {
        self.layer.wl_surface() == surface
    }
}

impl Panel {
    fn stack(&mut self, stack: Stack) -> &mut Vec<CardSurface> {
        match stack {
            Stack::Notices => &mut self.notices,
            Stack::Osd => &mut self.osd,
        }
    }

    /// Shows `cards` stacked at `place` on the bar's output: each where one
    /// of its size already is, painted again; else on a surface made anew.
    pub(super) fn show_cards(&mut self, stack: Stack, cards: &[PopupLayout], at: &CardPlace, style: &Style) {
        self.card_style = Some(style.clone());
        let (place, on_bars_output) = (at.place, at.monitor == CardMonitor::Bar);
        // None: the compositor's choice.
        let output = match (on_bars_output, &self.output) {
            (true, None) => {
                self.stack(stack).clear();
                return;
            }
            (true, output) => output.clone(),
            (false, _) => None,
        };
        let mut before = std::mem::take(self.stack(stack)).into_iter();
        let mut shown = Vec::new();
        let mut along = GAP;
        for card in cards {
            let notice = match before.next() {
                Some(mut same)
                    if same.layout.size() == card.size()
                        && (same.place, same.on_bars_output, same.along, same.scale)
                            == (place, on_bars_output, along, self.scale) =>
                {
                    same.layout = card.clone();
                    if let Some(gl) = &mut self.gl {
                        paint(gl, &same, style);
                    }
                    same
                }
                _ => self.new_card(stack, card, place, along, output.as_ref()),
            };
            along += notice.layout.size().1 as i32 + GAP;
            shown.push(notice);
        }
        *self.stack(stack) = shown;
    }

    /// A layer surface for `card` of `stack` at `place`, `along` from it,
    /// on `output` (none: the compositor's choice); painted once configured.
    fn new_card(
        &self,
        stack: Stack,
        card: &PopupLayout,
        place: ScreenPlace,
        along: i32,
        output: Option<&wl_output::WlOutput>,
    ) -> CardSurface {
        use ScreenPlace::*;
        let shell = &self.shell;
        let surface = shell.compositor.create_surface(&shell.qh);
        let layer = shell.layer_shell.create_layer_surface(
            &shell.qh,
            surface,
            Layer::Overlay,
            Some(if stack == Stack::Osd { "obi-osd" } else { "obi-notification" }),
            output,
        );
        if stack == Stack::Osd {
            // An empty input region: the pointer passes through to what is under it.
            match Region::new(&shell.compositor) {
                Ok(nowhere) => layer.wl_surface().set_input_region(Some(nowhere.wl_region())),
                Err(error) => tracing::debug!("the on-screen display takes the pointer: {error}"),
            }
        }
        let vertical = if matches!(place, TopLeft | TopCenter | TopRight) { Anchor::TOP } else { Anchor::BOTTOM };
        let horizontal = match place {
            TopLeft | BottomLeft => Anchor::LEFT,
            TopRight | BottomRight => Anchor::RIGHT,
            TopCenter | BottomCenter => Anchor::empty(),
        };
        layer.set_anchor(vertical | horizontal);
        let (top, bottom) = if vertical == Anchor::TOP { (along, 0) } else { (0, along) };
        layer.set_margin(top, GAP, bottom, GAP);
        let (width, height) = card.size();
        layer.set_size(width, height);
        layer.set_exclusive_zone(0);
        layer.set_keyboard_interactivity(KeyboardInteractivity::None);
        layer.commit();
        let viewport = self.followed_scale.as_ref().and(shell.fractional.as_ref());
        let viewport = viewport.map(|fractional| fractional.viewport(layer.wl_surface(), &shell.qh));
        CardSurface {
            gl_surface: None,
            viewport,
            layer,
            layout: card.clone(),
            place,
            on_bars_output: output.is_some(),
            along,
            scale: self.scale,
            configured: false,
        }
    }

    /// Whether one of the bar's cards is on `surface`.
    pub(super) fn has_card_on(&self, surface: &wl_surface::WlSurface) -> bool {
        self.notices.iter().chain(&self.osd).any(|card| card.is_on(surface))
    }

    /// The compositor placed the card on `layer`: it is painted (once the
    /// bar has GL to paint it with).
    pub(super) fn card_configured(&mut self, layer: &LayerSurface) {
        if let Some(notice) = self.notices.iter_mut().chain(&mut self.osd).find(|notice| notice.layer == *layer) {
            notice.configured = true;
            self.paint_cards_where(|notice| notice.layer == *layer);
        }
    }

    /// The bar's GL was just made: the cards configured before it are
    /// painted now, not at the next change.
    pub(super) fn paint_waiting_cards(&mut self) {
        self.paint_cards_where(|notice| notice.gl_surface.is_none());
    }

    /// Paints each configured card `which` picks, on a GL surface made for
    /// it the first time.
    fn paint_cards_where(&mut self, which: impl Fn(&CardSurface) -> bool) {
        let (Some(gl), Some(style)) = (&mut self.gl, &self.card_style) else { return };
        let cards = self.notices.iter_mut().chain(&mut self.osd);
        for notice in cards.filter(|notice| notice.configured && which(notice)) {
            if notice.gl_surface.is_none() {
                let (layer, size) = (notice.layer.wl_surface(), notice.layout.size());
                notice.gl_surface = surface_for(gl, layer, notice.viewport.as_ref(), notice.scale, size);
            }
            paint(gl, notice, style);
        }
    }

    /// The compositor ended the card on `layer`; it is made again at the next change.
    pub(super) fn card_closed(&mut self, layer: &LayerSurface) {
        self.notices.retain(|notice| notice.layer != *layer);
        self.osd.retain(|notice| notice.layer != *layer);
    }
}

impl LayerBar {
    /// The bar showing a card (a notification, the on-screen display) on `surface`.
    pub(super) fn member_with_card(&mut self, surface: &wl_surface::WlSurface) -> Option<&mut Member<Panel>> {
        self.members.iter_mut().find(|member| member.surface.has_card_on(surface))
    }

    /// The bar showing a notification on `surface`, and which one it is.
    pub(super) fn member_with_notice(
        &mut self,
        surface: &wl_surface::WlSurface,
    ) -> Option<(&mut Member<Panel>, usize)> {
        self.members.iter_mut().find_map(|member| {
            let index = member.surface.notices.iter().position(|notice| notice.is_on(surface))?;
            Some((member, index))
        })
    }
}

/// Paints `notice` with the bar's GL, once it has a surface.
fn paint(gl: &mut GlBar<LayerSurface>, notice: &CardSurface, style: &Style) {
    if let Some(surface) = &notice.gl_surface {
        gl.present_popup_on(surface, notice.scale.factor(), style, &notice.layout);
    }
}
