//! The `metrics` capability: CPU and memory use from one sampler shared
//! by every widget, so ten widgets asking cost one reading. On Linux the
//! sampler keeps `/proc/stat` and `/proc/meminfo` open; elsewhere it is
//! sysinfo's.

#[cfg(target_os = "linux")]
mod proc_files;
#[cfg(not(target_os = "linux"))]
mod sysinfo_sampler;

#[cfg(target_os = "linux")]
use proc_files::Sampler;
#[cfg(not(target_os = "linux"))]
use sysinfo_sampler::Sampler;

use crate::sync::lock;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
pub struct MemoryUsage {
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
}

pub trait Metrics: Send + Sync {
    /// Average use of all cores since the previous reading, 0..=100.
    fn cpu_usage(&self) -> f32;
    fn memory(&self) -> MemoryUsage;
}

/// Readings closer together than this are served from the last sample: a
/// CPU usage needs some time between two samples to mean anything.
const FRESH_FOR: Duration = Duration::from_millis(250);

pub struct SystemMetrics {
    sampled: Mutex<Sampled>,
}

struct Sampled {
    sampler: Sampler,
    cpu: (f32, Instant),
    memory: MemoryUsage,
    memory_read: Option<Instant>,
}

impl SystemMetrics {
    pub fn new() -> anyhow::Result<SystemMetrics> {
        let sampled = Sampled {
            sampler: Sampler::new()?,
            cpu: (0.0, Instant::now()),
            memory: MemoryUsage::default(),
            memory_read: None,
        };
        Ok(SystemMetrics { sampled: Mutex::new(sampled) })
    }
}

impl Metrics for SystemMetrics {
    fn cpu_usage(&self) -> f32 {
        let mut sampled = lock(&self.sampled);
        if sampled.cpu.1.elapsed() >= FRESH_FOR {
            sampled.cpu = (sampled.sampler.cpu_usage(), Instant::now());
        }
        sampled.cpu.0.clamp(0.0, 100.0)
    }

    fn memory(&self) -> MemoryUsage {
        let mut sampled = lock(&self.sampled);
        if sampled.memory_read.is_none_or(|at| at.elapsed() >= FRESH_FOR) {
            // A reading that fails leaves the last one.
            if let Some(memory) = sampled.sampler.memory() {
                sampled.memory = memory;
            }
            sampled.memory_read = Some(Instant::now());
        }
        sampled.memory
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_plausible() {
        let memory = SystemMetrics::new().unwrap().memory();
        assert!(memory.total_bytes > 0);
        assert!(memory.used_bytes <= memory.total_bytes);
        assert!(memory.available_bytes <= memory.total_bytes);
    }

    #[test]
    fn cpu_usage_is_a_percentage() {
        let metrics = SystemMetrics::new().unwrap();
        std::thread::sleep(FRESH_FOR);
        let usage = metrics.cpu_usage();
        assert!((0.0..=100.0).contains(&usage), "{usage}");
    }

    /// The share of memory in use agrees with the kernel's own count:
    /// `MemTotal - MemAvailable` of `MemTotal` in `/proc/meminfo`.
    #[cfg(target_os = "linux")]
    #[test]
    fn memory_use_agrees_with_proc_meminfo() {
        let field = |meminfo: &str, name: &str| -> f64 {
            let line = meminfo.lines().find(|line| line.starts_with(name)).unwrap();
            line.split_whitespace().nth(1).unwrap().parse::<f64>().unwrap() * 1024.0
        };
        let memory = SystemMetrics::new().unwrap().memory();
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
        let (total, available) = (field(&meminfo, "MemTotal:"), field(&meminfo, "MemAvailable:"));
        let kernel = (total - available) / total * 100.0;
        let ours = memory.used_bytes as f64 / memory.total_bytes as f64 * 100.0;
        assert!((ours - kernel).abs() < 3.0, "obi reads {ours:.1} % in use, /proc/meminfo {kernel:.1} %");
    }

    /// Busy and total jiffies of all cores, from the `cpu` line of `/proc/stat`
    /// (idle and iowait are the idle time; guest time is counted in user).
    #[cfg(target_os = "linux")]
    fn proc_stat_jiffies() -> (u64, u64) {
        let stat = std::fs::read_to_string("/proc/stat").unwrap();
        let line = stat.lines().find(|line| line.starts_with("cpu ")).unwrap();
        let fields: Vec<u64> = line.split_whitespace().skip(1).map(|field| field.parse().unwrap()).collect();
        let total: u64 = fields.iter().take(8).sum();
        let idle = fields[3] + fields[4];
        (total - idle, total)
    }

    /// Over the same interval, with one core kept busy, the CPU use agrees
    /// with the kernel's own count in `/proc/stat`.
    #[cfg(target_os = "linux")]
    #[test]
    fn cpu_use_agrees_with_proc_stat_over_an_interval() {
        let metrics = SystemMetrics::new().unwrap();
        let (busy_before, total_before) = proc_stat_jiffies();
        let until = Instant::now() + Duration::from_millis(1500);
        let spinner = std::thread::spawn(move || {
            let mut spins = 0u64;
            while Instant::now() < until {
                spins = std::hint::black_box(spins.wrapping_add(1));
            }
        });
        spinner.join().unwrap();
        let ours = metrics.cpu_usage() as f64;
        let (busy_after, total_after) = proc_stat_jiffies();
        let kernel = (busy_after - busy_before) as f64 / (total_after - total_before) as f64 * 100.0;
        assert!(kernel > 10.0, "the spinning core shows in /proc/stat: {kernel:.1} %");
        assert!((ours - kernel).abs() < 5.0, "obi reads {ours:.1} % busy, /proc/stat {kernel:.1} %");
    }
}
