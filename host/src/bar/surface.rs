//! What a running bar needs of the surface it is shown on (an X11 window, a
//! Wayland layer surface): its size, presenting the frames the bar laid out
//! and painting, being shown or hidden, being placed, and showing a tooltip
//! or a widget's popup the bar laid out, showing the desktop's
//! notifications and on-screen displays, and handing assistive technology
//! the bar's accessibility tree. Sizes and positions are in the
//! surface's logical pixels, unless they say otherwise. The surfaces live
//! in `window/`; the bar only names what it asks of them.

use super::{Located, Placement, ScreenRect};
use crate::config::model::ScreenPlace;

/// Where cards the bar shows on its own (notifications, the on-screen
/// display) go: a place on a monitor.
#[derive(Debug, Clone, PartialEq)]
pub struct CardPlace {
    pub place: ScreenPlace,
    pub monitor: CardMonitor,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CardMonitor {
    /// The bar's.
    Bar,
    /// The one with the focus: where the tiler says it is (komorebi), or
    /// by the tiler's name for it (RandR's, i3's), else the bar's on X11
    /// and Windows; on Wayland the compositor chooses.
    Focused { name: Option<String>, area: Option<ScreenRect> },
}
use crate::render::{Frame, PopupLayout, Rect, Style};
use std::rc::Rc;

/// How a surface says which output it put its bar on, by the display
/// server's name for it (RandR's, the compositor's): the bar tells its
/// tiler, which names its monitors the same way (i3, sway).
pub type ReportOutput = Rc<dyn Fn(&str)>;

/// Where a surface is: its top left corner on the screen, and its
/// output's, in the display server's coordinates, and device pixels per
/// logical pixel on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Origin {
    pub x: f32,
    pub y: f32,
    pub output_x: f32,
    pub output_y: f32,
    pub scale: f32,
}

pub trait Surface {
    /// The size the bar is laid out at; none while there is no surface to
    /// lay it out on.
    fn size(&self) -> Option<(f32, f32)>;

    /// Paints `frame`'s damage over the last frame and presents it, naming
    /// the damage where the platform takes it.
    fn present(&mut self, frame: Frame);

    /// Asks for everything to be painted again, when the surface is ready.
    fn redraw(&mut self);

    /// Shows or hides the bar as the user asks (`obi msg`); a surface whose
    /// monitor is gone stays hidden until it is back.
    fn set_visible(&mut self, visible: bool);

    /// Puts the bar where `placement` says now (a reload changed it, or the
    /// monitors did); `tiler_area` is where the tiler has the placement's
    /// monitor, when it says (komorebi), and wins over the display's list.
    fn place(&mut self, placement: &Placement, tiler_area: Option<ScreenRect>);

    /// Shows `text` beside the item at `anchor`, in `style`'s colours.
    fn show_tooltip(&mut self, anchor: Rect, text: &str, style: &Style);

    fn hide_tooltip(&mut self);

    /// Shows the popup laid out as `layout` beside the item at `anchor` in
    /// `style`, and holds the pointer and the keyboard while it is open
    /// (see [`super::Grabbed`]); false when it cannot be shown here.
    fn show_popup(&mut self, anchor: Rect, layout: &PopupLayout, style: &Style) -> bool;

    fn hide_popup(&mut self);

    /// Paints the popup shown again as `layout` (the same, but another
    /// cell lit), without moving or reopening it.
    fn repaint_popup(&mut self, layout: &PopupLayout, style: &Style);

    /// Shows the desktop's notifications laid out as `cards`, newest
    /// first, stacked from `at` (beside the bar when it runs along that
    /// edge), in `style`; none hides them. Each keeps the pointer's moves
    /// and presses on it for the bar ([`super::BarEvent::Notice`]).
    fn show_notices(&mut self, cards: &[PopupLayout], at: &CardPlace, style: &Style);

    /// Shows the on-screen display laid out as `card` at `at` (beside the
    /// bar when it runs along that edge), in `style`, over everything and
    /// taking no input, moved there if it was shown elsewhere; none hides
    /// it, wherever it is.
    fn show_osd(&mut self, card: Option<&PopupLayout>, at: &CardPlace, style: &Style);

    /// Where the screen's device pixel `at` falls: on the popup, on the bar
    /// or elsewhere.
    fn locate(&self, at: (i32, i32)) -> Located;

    /// The number of the monitor the bar is on now, in the numbering of
    /// its `monitor`; none while it waits for one.
    fn monitor(&self) -> Option<usize>;

    /// Where the bar is on the screen, as input on it is told (a status
    /// program's click events say where they fell).
    fn origin(&self) -> Origin;

    /// Takes the keyboard for the bar (`obi msg focus`: its keys come as
    /// [`super::BarKey`]s), or gives it back to the window that had it;
    /// whether that was done.
    fn hold_keyboard(&mut self, hold: bool) -> bool;

    /// Hands assistive technology the bar's accessibility tree as `update`
    /// makes it, when one listens: `update` is called only then.
    fn publish(&mut self, update: &mut dyn FnMut() -> accesskit::TreeUpdate);
}
