//! Where on the screen the bar goes: the configured `monitor`, spanning its
//! width at the bar's height along its top edge (its bottom one with
//! `edge`), unless `position` gives the window's start (absolute screen
//! coordinates, as komorebi-bar reads them) or its size.
//! The monitor is komorebi's of that number where komorebi runs and says
//! where its monitors are (as komorebi-bar finds it); otherwise the one of
//! that index in the order the display server lists monitors, the primary
//! one when none is configured.

use crate::config::BarConfig;
use crate::config::model::Edge;
pub use crate::screen::ScreenRect;

/// A monitor as the display server lists it (a Wayland output, an X11
/// RandR monitor): where it is. What the tiler shows on a monitor is
/// [`crate::tiler::Monitor`].
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    pub name: String,
    pub rect: ScreenRect,
    pub primary: bool,
    /// The screen's pixels to one of the config's (its `height`): the
    /// monitor's scale where `rect` is in device pixels (Windows at 150 %:
    /// 1.5), 1 where it is in logical ones (Wayland) or the display scales
    /// nothing (X11).
    pub scale: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub monitor: Option<usize>,
    pub start: Option<(i32, i32)>,
    /// `position.end.x`; without it the bar runs to its monitor's right edge.
    pub width: Option<u32>,
    /// `height`, else `position.end.y`.
    pub height: u32,
    /// The edge it runs along when `start` is not given.
    pub edge: Edge,
    /// The tiler keeps the bar's space free: komorebi, told the monitor's
    /// `work_area_offset`.
    pub tiler_keeps_space: bool,
}

impl Placement {
    pub fn from_config(config: &BarConfig) -> Placement {
        let position = config.model.position.as_ref();
        Placement {
            monitor: config.monitor(),
            start: position
                .and_then(|position| position.start)
                .map(|start| (start.x.round() as i32, start.y.round() as i32)),
            width: position.and_then(|position| position.end).map(|end| end.x.round().max(1.0) as u32),
            height: config.height().round().max(1.0) as u32,
            edge: config.edge(),
            tiler_keeps_space: config.work_area_offset().is_some(),
        }
    }

    /// The bar's rectangle among `monitors`, or why it has none.
    pub fn rect(&self, monitors: &[Output], tiler_says: Option<ScreenRect>) -> Result<ScreenRect, NoMonitor> {
        self.monitor(monitors, tiler_says).map(|monitor| self.rect_on(monitor))
    }

    /// The bar's monitor among `monitors`, or why there is none.
    /// `tiler_says` is where the tiler's monitor of the config's number is
    /// (komorebi's numbering, which the user sets and the display's order
    /// need not follow); it wins when one of `monitors` is there.
    pub fn monitor<'a>(&self, monitors: &'a [Output], tiler_says: Option<ScreenRect>) -> Result<&'a Output, NoMonitor> {
        if let Some(found) = tiler_says.and_then(|area| output_at(monitors, area)) {
            return Ok(found);
        }
        match self.monitor {
            Some(index) => monitors.get(index).ok_or_else(|| NoMonitor::Missing { index, found: describe(monitors) }),
            None => monitors.iter().find(|monitor| monitor.primary).or(monitors.first()).ok_or(NoMonitor::NoneFound),
        }
    }

    /// The bar's rectangle on `monitor`, its sizes at the monitor's scale.
    pub fn rect_on(&self, monitor: &Output) -> ScreenRect {
        let area = monitor.rect;
        let scaled = |size: u32| (f64::from(size) * monitor.scale).round().max(1.0) as u32;
        let height = scaled(self.height);
        let along_edge = match self.edge {
            Edge::Top => area.y,
            Edge::Bottom => area.y + area.height as i32 - height as i32,
        };
        let (x, y) = self.start.unwrap_or((area.x, along_edge));
        let width = self.width.map(scaled).unwrap_or(((area.x + area.width as i32) - x).max(1) as u32);
        ScreenRect { x, y, width, height }
    }
}

/// The monitor at `area`: the one that is just there, else the one holding
/// its middle (the tiler and the display server may round differently).
fn output_at(monitors: &[Output], area: ScreenRect) -> Option<&Output> {
    let (x, y) = area.centre();
    (monitors.iter().find(|monitor| monitor.rect == area))
        .or_else(|| monitors.iter().find(|monitor| monitor.rect.contains(x, y)))
}

/// Why the bar has no monitor among those there are now.
#[derive(Debug, PartialEq, Eq)]
pub enum NoMonitor {
    /// The config names a monitor that is not there; `found` describes those that are.
    Missing { index: usize, found: String },
    /// There is no monitor at all.
    NoneFound,
}

impl std::fmt::Display for NoMonitor {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NoMonitor::Missing { index, found } => write!(formatter, "monitor {index} does not exist; found {found}"),
            NoMonitor::NoneFound => write!(formatter, "no monitor found"),
        }
    }
}

impl std::error::Error for NoMonitor {}

/// "HDMI-1 1920x1080+0+0", for messages.
impl std::fmt::Display for Output {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        let Output { name, rect, .. } = self;
        write!(formatter, "{name} {}x{}{:+}{:+}", rect.width, rect.height, rect.x, rect.y)
    }
}

/// "0: HDMI-1 1920x1080+0+0, 1: ..." for messages.
pub fn describe(monitors: &[Output]) -> String {
    if monitors.is_empty() {
        return "none".into();
    }
    let described: Vec<String> =
        monitors.iter().enumerate().map(|(index, monitor)| format!("{index}: {monitor}")).collect();
    described.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn monitors() -> Vec<Output> {
        let monitor = |name: &str, x, width, primary| Output {
            name: name.into(),
            rect: ScreenRect { x, y: 0, width, height: 1080 },
            primary,
            scale: 1.0,
        };
        vec![monitor("DP-1", 0, 2560, false), monitor("HDMI-1", 2560, 1920, true)]
    }

    fn placement(json: &str) -> Placement {
        Placement::from_config(&BarConfig::parse(json, "test").unwrap().config)
    }

    #[test]
    fn the_configured_monitor_at_full_width() {
        let rect = placement(r#"{ "monitor": 0, "height": 30, "left_widgets": [], "right_widgets": [] }"#)
            .rect(&monitors(), None)
            .unwrap();
        assert_eq!(rect, ScreenRect { x: 0, y: 0, width: 2560, height: 30 });
        let rect = placement(r#"{ "monitor": { "index": 1 }, "left_widgets": [], "right_widgets": [] }"#)
            .rect(&monitors(), None)
            .unwrap();
        assert_eq!(rect, ScreenRect { x: 2560, y: 0, width: 1920, height: 50 });
    }

    #[test]
    fn the_primary_monitor_without_one_configured() {
        let rect = placement(r#"{ "left_widgets": [], "right_widgets": [] }"#).rect(&monitors(), None).unwrap();
        assert_eq!(rect.x, 2560);
    }

    #[test]
    fn position_overrides_start_and_size() {
        let json = r#"{ "monitor": 1, "position": { "start": { "x": 2600, "y": 1040 } }, "left_widgets": [], "right_widgets": [] }"#;
        let rect = placement(json).rect(&monitors(), None).unwrap();
        assert_eq!(rect, ScreenRect { x: 2600, y: 1040, width: 1880, height: 50 }, "to the monitor's right edge");
        let json = r#"{ "position": { "start": { "x": 10, "y": 5 }, "end": { "x": 800, "y": 28 } }, "left_widgets": [], "right_widgets": [] }"#;
        assert_eq!(
            placement(json).rect(&monitors(), None).unwrap(),
            ScreenRect { x: 10, y: 5, width: 800, height: 28 }
        );
        let json = r#"{ "height": 40, "position": { "end": { "x": 800, "y": 28 } }, "left_widgets": [], "right_widgets": [] }"#;
        assert_eq!(placement(json).rect(&monitors(), None).unwrap().height, 40, "height wins over the end position");
    }

    #[test]
    fn edge_bottom_runs_the_bar_along_its_monitors_bottom_and_position_wins() {
        let json = r#"{ "monitor": 1, "height": 30, "edge": "Bottom", "left_widgets": [], "right_widgets": [] }"#;
        let mut scaled = monitors();
        assert_eq!(
            placement(json).rect(&scaled, None).unwrap(),
            ScreenRect { x: 2560, y: 1050, width: 1920, height: 30 }
        );
        scaled[1].scale = 2.0;
        assert_eq!(placement(json).rect(&scaled, None).unwrap().y, 1020, "its height at the monitor's scale");
        let json = r#"{ "edge": "Bottom", "position": { "start": { "x": 0, "y": 10 } }, "left_widgets": [], "right_widgets": [] }"#;
        assert_eq!(placement(json).rect(&monitors(), None).unwrap().y, 10);
        let config = BarConfig::parse(json, "test").unwrap().config;
        assert_eq!(config.obi_own_entries(), ["edge"], "`obi check` notes komorebi-bar has no `edge`");
    }

    #[test]
    fn sizes_follow_the_monitors_scale_and_places_do_not() {
        let mut scaled = monitors();
        scaled[1].scale = 1.5;
        let json = r#"{ "monitor": 1, "height": 40, "left_widgets": [], "right_widgets": [] }"#;
        assert_eq!(placement(json).rect(&scaled, None).unwrap(), ScreenRect { x: 2560, y: 0, width: 1920, height: 60 });
        let json = r#"{ "monitor": 1, "height": 40, "position": { "start": { "x": 2600, "y": 0 }, "end": { "x": 800, "y": 40 } }, "left_widgets": [], "right_widgets": [] }"#;
        assert_eq!(placement(json).rect(&scaled, None).unwrap(), ScreenRect { x: 2600, y: 0, width: 1200, height: 60 });
    }

    /// komorebi numbers monitors as its user says: its monitor 0 may be the
    /// display's second.
    #[test]
    fn the_tilers_monitor_of_that_number_wins_where_one_is_there() {
        let bar = placement(r#"{ "monitor": 0, "height": 30, "left_widgets": [], "right_widgets": [] }"#);
        let komorebis_first = ScreenRect { x: 2560, y: 0, width: 1920, height: 1080 };
        assert_eq!(bar.rect(&monitors(), Some(komorebis_first)).unwrap().x, 2560);
        let rounded = ScreenRect { x: 2561, y: 0, width: 1918, height: 1080 };
        assert_eq!(bar.rect(&monitors(), Some(rounded)).unwrap().x, 2560, "the monitor holding its middle");
        let nowhere = ScreenRect { x: -5000, y: 0, width: 1920, height: 1080 };
        assert_eq!(bar.rect(&monitors(), Some(nowhere)).unwrap().x, 0, "the display's order where none is there");
    }

    #[test]
    fn a_missing_monitor_lists_those_found() {
        let error = placement(r#"{ "monitor": 2, "left_widgets": [], "right_widgets": [] }"#)
            .rect(&monitors(), None)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "monitor 2 does not exist; found 0: DP-1 2560x1080+0+0, 1: HDMI-1 1920x1080+2560+0"
        );
        assert_eq!(
            placement(r#"{ "left_widgets": [], "right_widgets": [] }"#).rect(&[], None),
            Err(NoMonitor::NoneFound)
        );
    }
}
