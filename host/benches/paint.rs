//! The CPU time of painting the bar at 1920×50 with Mesa's llvmpipe: a full
//! repaint against a repaint of the one widget that changed (a clock
//! ticking), as the window does it. Measured as the process's CPU time
//! (all threads: llvmpipe rasterises on several) until the GL finishes.

use criterion::{Criterion, criterion_group, criterion_main};
use obi::config::{BarConfig, Side};
use obi::render::{Offscreen, Scene, SceneWidget, Style, damage, find_text_font};
use obi::view::{Emphasis, Inputs, Item, Piece, View, WidgetState};
use std::time::Duration;

const WIDTH: u32 = 1920;
const HEIGHT: u32 = 50;

fn widget(side: Side, items: &[(&str, &str)]) -> SceneWidget {
    let items = items
        .iter()
        .enumerate()
        .map(|(index, (icon, text))| Item {
            key: index.to_string(),
            pieces: vec![Piece::Icon((*icon).into()), Piece::Text((*text).into())],
            emphasis: if index == 1 { Emphasis::Selected } else { Emphasis::Normal },
            takes: Inputs::NONE,
            tooltip: None,
            look: None,
        })
        .collect();
    SceneWidget { side, name: "bench".into(), state: WidgetState::Ready(View::of(items)) }
}

/// A typical bar of 12 widgets: workspaces, a window title, what plays,
/// meters, network, battery, the date and a clock.
fn scene(style: &Style, second: u32) -> Scene {
    let clock = format!("12:34:{second:02}");
    Scene {
        style: style.clone(),
        widgets: vec![
            widget(Side::Left, &[("", "1"), ("", "2"), ("", "3"), ("", "4")]),
            widget(Side::Center, &[("\u{e4e0}", "editor — obi/host/src/render/painter.rs")]),
            widget(Side::Right, &[("\u{e610}", "CPU: 12%")]),
            widget(Side::Right, &[("\u{e9c4}", "RAM: 41%")]),
            widget(Side::Right, &[("\u{e2a0}", "/ 63%")]),
            widget(Side::Right, &[("\u{e2b8}", "DOWN 1.2 MiB/s UP 40 KiB/s")]),
            widget(Side::Right, &[("\u{e0f8}", "87%")]),
            widget(Side::Right, &[("\u{e2d8}", "English (US)")]),
            widget(Side::Right, &[("\u{e4fe}", "v0.2.0")]),
            widget(Side::Center, &[("\u{e3ee}", "Artist — Title")]),
            widget(Side::Right, &[("\u{e10a}", "Sunday 22 November")]),
            widget(Side::Right, &[("\u{e19a}", clock.as_str())]),
        ],
    }
}

/// CPU time used by this process so far.
fn cpu_time() -> Duration {
    // SAFETY: getrusage writes into the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn benches(c: &mut Criterion) {
    let json = r#"{ "left_widgets": [], "right_widgets": [], "grouping": { "kind": "Widget", "style": "DefaultWithShadowB4O1S3" } }"#;
    let mut style = Style::from_config(&BarConfig::parse(json, "bench").unwrap().config);
    style.text_font = Some(find_text_font(None).unwrap().data);
    let mut offscreen = Offscreen::new(WIDTH, HEIGHT).expect("an EGL device (Mesa)");
    let scenes: Vec<Scene> = (0..60).map(|second| scene(&style, second)).collect();

    let mut group = c.benchmark_group("paint 1920x50 (CPU time)");
    group.bench_function("full repaint", |b| {
        b.iter_custom(|iterations| {
            let start = cpu_time();
            for iteration in 0..iterations {
                offscreen.paint(&scenes[iteration as usize % 60]);
                offscreen.finish();
            }
            cpu_time() - start
        })
    });
    group.bench_function("one widget changed (clock tick)", |b| {
        let mut shown = offscreen.paint(&scenes[0]);
        let mut second = 0;
        b.iter_custom(|iterations| {
            let start = cpu_time();
            for _ in 0..iterations {
                second = (second + 1) % 60;
                let scene = &scenes[second];
                let layout = offscreen.lay_out(scene);
                if let Some(region) = damage(&shown, &layout, &scene.style) {
                    offscreen.paint_region(scene, &layout, region);
                }
                offscreen.finish();
                shown = layout;
            }
            cpu_time() - start
        })
    });
    group.finish();
}

criterion_group!(paint, benches);
criterion_main!(paint);
